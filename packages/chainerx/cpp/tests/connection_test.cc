#include "chainerx/routines/connection.h"

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "testing.h"

namespace chainerx {
namespace {

using testing::CheckGradient;
using testing::ExpectAllClose;
using testing::MakeArray;
using testing::ToVector;

// The multi-index of a flat C-order index into sizes.
std::vector<int64_t> Unravel(int64_t flat, const std::vector<int64_t>& sizes) {
    std::vector<int64_t> index(sizes.size());
    for (size_t d = sizes.size(); d-- > 0;) {
        index[d] = flat % sizes[d];
        flat /= sizes[d];
    }
    return index;
}

std::vector<int64_t> Spatial(const Shape& shape) { return std::vector<int64_t>(shape.begin() + 2, shape.end()); }

int64_t FlatIndex(const std::vector<int64_t>& index, const Shape& shape) {
    int64_t flat = 0;
    for (size_t d = 0; d < index.size(); ++d) flat = flat * shape[d] + index[d];
    return flat;
}

// The input position that output position o and kernel offset k meet at, or nothing when it
// lies in the padding.
std::optional<std::vector<int64_t>> InputPosition(const std::vector<int64_t>& o, const std::vector<int64_t>& k,
                                                  const Dims& stride, const Dims& pad, const std::vector<int64_t>& in) {
    std::vector<int64_t> i(o.size());
    for (size_t d = 0; d < o.size(); ++d) {
        i[d] = o[d] * stride[d] - pad[d] + k[d];
        if (i[d] < 0 || i[d] >= in[d]) return std::nullopt;
    }
    return i;
}

// out[n, oc, o] = b[oc] + sum over c and k of x[n, c, o * stride - pad + k] * w[oc, c, k], by
// direct loops over every output element.
std::vector<double> NaiveConv(const Array& x, const Array& w, const std::optional<Array>& b, const Dims& stride,
                              const Dims& pad, const Shape& out_shape) {
    std::vector<double> xs = ToVector<double>(x);
    std::vector<double> ws = ToVector<double>(w);
    std::vector<double> bs = b.has_value() ? ToVector<double>(*b) : std::vector<double>(w.shape()[0], 0.0);
    std::vector<int64_t> outs = Spatial(out_shape);
    std::vector<int64_t> ks = Spatial(w.shape());
    std::vector<double> out(out_shape.GetTotalSize());
    int64_t out_size = Shape(outs.begin(), outs.end()).GetTotalSize();
    int64_t k_size = Shape(ks.begin(), ks.end()).GetTotalSize();
    for (int64_t flat = 0; flat < out_shape.GetTotalSize(); ++flat) {
        int64_t n = flat / (w.shape()[0] * out_size);
        int64_t oc = flat / out_size % w.shape()[0];
        std::vector<int64_t> o = Unravel(flat % out_size, outs);
        double sum = bs[oc];
        for (int64_t c = 0; c < x.shape()[1]; ++c) {
            for (int64_t kf = 0; kf < k_size; ++kf) {
                std::vector<int64_t> k = Unravel(kf, ks);
                auto i = InputPosition(o, k, stride, pad, Spatial(x.shape()));
                if (!i.has_value()) continue;
                std::vector<int64_t> xi{n, c};
                xi.insert(xi.end(), i->begin(), i->end());
                std::vector<int64_t> wi{oc, c};
                wi.insert(wi.end(), k.begin(), k.end());
                sum += xs[FlatIndex(xi, x.shape())] * ws[FlatIndex(wi, w.shape())];
            }
        }
        out[flat] = sum;
    }
    return out;
}

// out[n, co, i * stride - pad + k] += x[n, ci, i] * w[ci, co, k] over every input element,
// dropping positions outside out; then out += b.
std::vector<double> NaiveConvTranspose(const Array& x, const Array& w, const std::optional<Array>& b,
                                       const Dims& stride, const Dims& pad, const Shape& out_shape) {
    std::vector<double> xs = ToVector<double>(x);
    std::vector<double> ws = ToVector<double>(w);
    std::vector<double> out(out_shape.GetTotalSize(), 0.0);
    std::vector<int64_t> ins = Spatial(x.shape());
    std::vector<int64_t> ks = Spatial(w.shape());
    int64_t in_size = Shape(ins.begin(), ins.end()).GetTotalSize();
    int64_t k_size = Shape(ks.begin(), ks.end()).GetTotalSize();
    int64_t c_out = w.shape()[1];
    for (int64_t flat = 0; flat < x.GetTotalSize(); ++flat) {
        int64_t n = flat / (x.shape()[1] * in_size);
        int64_t ci = flat / in_size % x.shape()[1];
        std::vector<int64_t> i = Unravel(flat % in_size, ins);
        for (int64_t co = 0; co < c_out; ++co) {
            for (int64_t kf = 0; kf < k_size; ++kf) {
                std::vector<int64_t> k = Unravel(kf, ks);
                // The output is the image here: input position i meets offset k at i * stride - pad + k.
                auto o = InputPosition(i, k, stride, pad, Spatial(out_shape));
                if (!o.has_value()) continue;
                std::vector<int64_t> oi{n, co};
                oi.insert(oi.end(), o->begin(), o->end());
                std::vector<int64_t> wi{ci, co};
                wi.insert(wi.end(), k.begin(), k.end());
                out[FlatIndex(oi, out_shape)] += xs[flat] * ws[FlatIndex(wi, w.shape())];
            }
        }
    }
    if (b.has_value()) {
        std::vector<double> bs = ToVector<double>(*b);
        int64_t plane = out_shape.GetTotalSize() / std::max<int64_t>(out_shape[0] * c_out, 1);
        for (size_t e = 0; e < out.size(); ++e) out[e] += bs[e / plane % c_out];
    }
    return out;
}

Array Uniform(const Shape& shape, Dtype dtype = Dtype::kFloat64) { return AsType(RandomUniform(-1, 1, shape), dtype); }

template <typename E>
void ExpectError(const std::function<void()>& f, const std::string& message) {
    try {
        f();
        FAIL() << "expected an error: " << message;
    } catch (const E& e) {
        EXPECT_EQ(std::string{e.what()}, message);
    }
}

TEST(ConnectionTest, OutputSizesFollowChainer) {
    EXPECT_EQ(internal::GetConvOutDim(28, 5, 1, 0, false), 24);
    EXPECT_EQ(internal::GetConvOutDim(6, 3, 2, 0, false), 2);
    EXPECT_EQ(internal::GetConvOutDim(6, 3, 2, 0, true), 3);
    EXPECT_EQ(internal::GetConvOutDim(7, 3, 2, 1, false), 4);
    EXPECT_EQ(internal::GetConvOutDim(3, 5, 1, 0, false), -1);  // floor division, as Python's //
    EXPECT_EQ(internal::GetConvOutDim(3, 5, 3, 0, true), 1);
    EXPECT_EQ(internal::GetConvTransposeOutDim(4, 3, 2, 0, false), 9);
    EXPECT_EQ(internal::GetConvTransposeOutDim(4, 3, 2, 0, true), 8);
    EXPECT_EQ(internal::GetConvTransposeOutDim(5, 4, 3, 1, false), 14);
}

TEST(ConnectionTest, ConvMatchesNaiveLoops) {
    struct Case {
        Shape x, w;
        Dims stride, pad;
        bool cover_all;
        Shape out;
    };
    for (const Case& c : std::vector<Case>{
                 {{2, 3, 9}, {4, 3, 3}, {2}, {1}, false, {2, 4, 5}},
                 {{2, 3, 9}, {4, 3, 4}, {3}, {1}, true, {2, 4, 4}},
                 {{1, 1, 5}, {2, 1, 5}, {1}, {0}, false, {1, 2, 1}},
                 {{2, 3, 7, 6}, {4, 3, 3, 2}, {2, 1}, {1, 0}, false, {2, 4, 4, 5}},
                 {{1, 2, 6, 5}, {3, 2, 3, 3}, {2, 2}, {0, 0}, false, {1, 3, 2, 2}},
                 {{1, 2, 6, 5}, {3, 2, 3, 3}, {2, 2}, {0, 0}, true, {1, 3, 3, 2}},
                 {{1, 1, 3, 3}, {2, 1, 2, 2}, {1, 1}, {3, 3}, false, {1, 2, 8, 8}},
                 {{2, 2, 5, 4, 6}, {3, 2, 2, 3, 2}, {1, 2, 3}, {1, 0, 2}, false, {2, 3, 6, 1, 3}},
                 {{1, 2, 5, 4, 6}, {3, 2, 2, 3, 2}, {3, 2, 4}, {0, 1, 1}, true, {1, 3, 2, 3, 3}},
         }) {
        Array x = Uniform(c.x);
        Array w = Uniform(c.w);
        Array b = Uniform(Shape{c.w[0]});
        Array y = Conv(x, w, b, c.stride, c.pad, c.cover_all);
        ASSERT_EQ(y.shape(), c.out) << "x " << c.x << " w " << c.w;
        ExpectAllClose(y, NaiveConv(x, w, b, c.stride, c.pad, c.out), 1e-12);
        ExpectAllClose(Conv(x, w, std::nullopt, c.stride, c.pad, c.cover_all),
                       NaiveConv(x, w, std::nullopt, c.stride, c.pad, c.out), 1e-12);
    }
}

TEST(ConnectionTest, ConvOfViewsAndOtherDtypes) {
    // Transposed views of x and w.
    Array x = Transpose(Uniform(Shape{6, 7, 3, 2}));
    Array w = Transpose(Uniform(Shape{2, 3, 3, 4}));
    Shape out{2, 4, 4, 7};
    ExpectAllClose(Conv(x, w, std::nullopt, {2, 1}, {1, 1}), NaiveConv(x, w, std::nullopt, {2, 1}, {1, 1}, out), 1e-12);
    for (Dtype dtype : {Dtype::kFloat32, Dtype::kFloat16}) {
        Array xd = AsType(x, dtype);
        Array wd = AsType(w, dtype);
        Array y = Conv(xd, wd, std::nullopt, {2, 1}, {1, 1});
        EXPECT_EQ(y.dtype(), dtype);
        ExpectAllClose(y, NaiveConv(xd, wd, std::nullopt, {2, 1}, {1, 1}, out), dtype == Dtype::kFloat16 ? 1e-2 : 1e-5);
    }
    EXPECT_EQ(Conv(AsType(x, Dtype::kFloat32), w, std::nullopt, {1, 1}, {0, 0}).dtype(), Dtype::kFloat64);
    EXPECT_EQ(Conv(AsType(x, Dtype::kFloat16), AsType(w, Dtype::kFloat32), std::nullopt, {1, 1}, {0, 0}).dtype(),
              Dtype::kFloat32);
}

TEST(ConnectionTest, ConvTransposeMatchesNaiveLoops) {
    struct Case {
        Shape x, w;
        Dims stride, pad;
        std::optional<Dims> outsize;
        Shape out;
    };
    for (const Case& c : std::vector<Case>{
                 {{2, 3, 4}, {3, 2, 3}, {2}, {1}, std::nullopt, {2, 2, 7}},
                 {{2, 3, 4, 3}, {3, 4, 3, 2}, {2, 1}, {1, 0}, std::nullopt, {2, 4, 7, 4}},
                 {{2, 2, 4, 3}, {2, 3, 3, 2}, {2, 1}, {0, 0}, Dims{8, 4}, {2, 3, 8, 4}},
                 {{2, 2, 4, 3}, {2, 3, 3, 2}, {2, 1}, {0, 0}, Dims{10, 4}, {2, 3, 10, 4}},
                 {{1, 2, 3, 2, 4}, {2, 3, 2, 3, 2}, {1, 2, 3}, {1, 0, 1}, std::nullopt, {1, 3, 2, 5, 9}},
         }) {
        Array x = Uniform(c.x);
        Array w = Uniform(c.w);
        Array b = Uniform(Shape{c.w[1]});
        Array y = ConvTranspose(x, w, b, c.stride, c.pad, c.outsize);
        ASSERT_EQ(y.shape(), c.out) << "x " << c.x << " w " << c.w;
        ExpectAllClose(y, NaiveConvTranspose(x, w, b, c.stride, c.pad, c.out), 1e-12);
    }
}

TEST(ConnectionTest, ChunkedBatchMatchesSampleBySample) {
    // Enough samples for the native kernels to split the batch into several GEMMs.
    Array x = Uniform(Shape{41, 2, 40, 40}, Dtype::kFloat32);
    Array w = Uniform(Shape{3, 2, 3, 3}, Dtype::kFloat32);
    Array b = Uniform(Shape{3}, Dtype::kFloat32);
    Array xg = Copy(x).RequireGrad();
    Array wg = Copy(w).RequireGrad();
    Array y = Conv(xg, wg, b, {2, 1}, {1, 0});
    Array gy = Uniform(y.shape(), Dtype::kFloat32);
    std::vector<std::optional<Array>> grads = Grad({y}, {xg, wg}, std::nullopt, DoubleBackpropOption::kDisable, {gy});
    Array gw_sum = ZerosLike(w);
    for (int64_t n = 0; n < x.shape()[0]; ++n) {
        Array xn = Copy(At(x, {Slice{n, n + 1}})).RequireGrad();
        Array wn = Copy(w).RequireGrad();
        Array yn = Conv(xn, wn, b, {2, 1}, {1, 0});
        Array gyn = At(gy, {Slice{n, n + 1}});
        ExpectAllClose(yn, ToVector<double>(At(y, {Slice{n, n + 1}})), 1e-5);
        std::vector<std::optional<Array>> gn =
                Grad({yn}, {xn, wn}, std::nullopt, DoubleBackpropOption::kDisable, {gyn});
        ExpectAllClose(*gn[0], ToVector<double>(At(*grads[0], {Slice{n, n + 1}})), 1e-5);
        gw_sum = gw_sum + AsType(*gn[1], Dtype::kFloat64);
    }
    // float32 sums over 41 x 800 positions: rounding reaches ~2e-4 here, a chunking bug O(1).
    ExpectAllClose(*grads[1], ToVector<double>(gw_sum), 1e-3);
}

TEST(ConnectionTest, ConvGradients) {
    Array x = Uniform(Shape{2, 2, 5, 4});
    Array w = Uniform(Shape{3, 2, 3, 2});
    Array b = Uniform(Shape{3});
    Dims stride{2, 1};
    Dims pad{1, 0};
    CheckGradient([&](const Array& v) { return Conv(v, w, b, stride, pad, true); }, x);
    CheckGradient([&](const Array& v) { return Conv(x, v, b, stride, pad, true); }, w);
    CheckGradient([&](const Array& v) { return Conv(x, w, v, stride, pad, true); }, b);
    Array wt = Uniform(Shape{2, 3, 3, 2});
    CheckGradient([&](const Array& v) { return ConvTranspose(v, wt, b, stride, pad, Dims{8, 5}); }, x);
    CheckGradient([&](const Array& v) { return ConvTranspose(x, v, b, stride, pad, Dims{8, 5}); }, wt);
    CheckGradient([&](const Array& v) { return ConvTranspose(x, wt, v, stride, pad); }, b);
}

TEST(ConnectionTest, ConvSecondOrderGradients) {
    Array x = Uniform(Shape{2, 2, 4, 3});
    Array w = Uniform(Shape{3, 2, 2, 2});
    Array gy = Uniform(Conv(x, w, std::nullopt, {2, 1}, {1, 0}, true).shape());
    // The first-order gradient in one input, as a function of the other, differentiated again.
    auto first_order = [&](const Array& xv, const Array& wv, int wrt) {
        Array leaf = Copy(wrt == 0 ? xv : wv).RequireGrad();
        Array y = wrt == 0 ? Conv(leaf, wv, std::nullopt, {2, 1}, {1, 0}, true)
                           : Conv(xv, leaf, std::nullopt, {2, 1}, {1, 0}, true);
        return *Grad({y}, {leaf}, std::nullopt, DoubleBackpropOption::kEnable, {gy})[0];
    };
    CheckGradient([&](const Array& v) { return first_order(x, v, 0); }, w);  // gx in w: conv_transpose's
    CheckGradient([&](const Array& v) { return first_order(v, w, 1); }, x);  // gw in x: the weight grad's
    Array gyt = Uniform(ConvTranspose(x, Transpose(w, Axes{1, 0, 2, 3}), std::nullopt, {2, 1}, {1, 0}).shape());
    Array wt = Transpose(w, Axes{1, 0, 2, 3});
    auto first_order_t = [&](const Array& xv, const Array& wv) {
        Array leaf = Copy(xv).RequireGrad();
        return *Grad({ConvTranspose(leaf, wv, std::nullopt, {2, 1}, {1, 0})}, {leaf}, std::nullopt,
                     DoubleBackpropOption::kEnable, {gyt})[0];
    };
    CheckGradient([&](const Array& v) { return first_order_t(x, v); }, wt);
}

TEST(ConnectionTest, IntegerAndBoolInputsComputeExactlyAndWrapLikeIntegers) {
    // One output channel, kernel (1, 1): y[o] = x[o] + x[o + 1].
    Array w = MakeArray<int8_t>(Shape{1, 1, 2}, {1, 1});
    Array y = Conv(MakeArray<int32_t>(Shape{1, 1, 4}, {1, -2, 30, 4}), w, std::nullopt, {1}, {0});
    EXPECT_EQ(y.dtype(), Dtype::kInt32);
    EXPECT_EQ(ToVector<int32_t>(y), (std::vector<int32_t>{-1, 28, 34}));
    // int8: 100 + 100 wraps to -56, as integer arithmetic does.
    Array y8 = Conv(MakeArray<int8_t>(Shape{1, 1, 3}, {100, 100, 0}), w, MakeArray<int8_t>(Shape{1}, {0}), {1}, {0});
    EXPECT_EQ(y8.dtype(), Dtype::kInt8);
    EXPECT_EQ(ToVector<int32_t>(y8), (std::vector<int32_t>{-56, 100}));
    // bool: true where any product is true.
    Array yb = ConvTranspose(MakeArray<bool>(Shape{1, 1, 2}, {true, false}),
                             MakeArray<bool>(Shape{1, 1, 2}, {false, true}), std::nullopt, {1}, {0}, std::nullopt);
    EXPECT_EQ(yb.dtype(), Dtype::kBool);
    EXPECT_EQ(ToVector<int32_t>(yb), (std::vector<int32_t>{0, 1, 0}));
}

TEST(ConnectionTest, MixedDtypesComputeInTheCommonDtype) {
    Array x = Uniform(Shape{2, 3, 5}, Dtype::kFloat32);
    Array w = Uniform(Shape{4, 3, 2});
    Array y = Conv(AsType(x, Dtype::kFloat16), w, std::nullopt, {1}, {0});
    EXPECT_EQ(y.dtype(), Dtype::kFloat64);
    ExpectAllClose(
            y, ToVector<double>(Conv(AsType(AsType(x, Dtype::kFloat16), Dtype::kFloat64), w, std::nullopt, {1}, {0})));
    Array yi = Conv(AsType(x, Dtype::kInt8), w, std::nullopt, {1}, {0});
    EXPECT_EQ(yi.dtype(), Dtype::kFloat64);
    ExpectAllClose(yi,
                   ToVector<double>(Conv(AsType(AsType(x, Dtype::kInt8), Dtype::kFloat64), w, std::nullopt, {1}, {0})));
}

TEST(ConnectionTest, WithoutSpatialAxesIsAProductOverChannels) {
    Array x = MakeArray<double>(Shape{2, 3}, {1, 2, 3, -1, 0, 2});
    Array w = MakeArray<double>(Shape{2, 3}, {1, 0, 1, 0, 2, -1});
    Array b = MakeArray<double>(Shape{2}, {0.5, -0.5});
    ExpectAllClose(Conv(x, w, b, {}, {}), {4.5, 0.5, 1.5, -2.5});
    Array wt = MakeArray<double>(Shape{3, 2}, {1, 0, 0, 2, 1, -1});  // (in, out) for the transpose
    ExpectAllClose(ConvTranspose(x, wt, b, {}, {}, std::nullopt), {4.5, 0.5, 1.5, -2.5});
    CheckGradient([&](const Array& v) { return Square(Conv(v, w, b, {}, {})); }, x);
    CheckGradient([&](const Array& v) { return Square(ConvTranspose(x, v, b, {}, {}, std::nullopt)); }, wt);
}

TEST(ConnectionTest, Errors) {
    auto zeros = [](const Shape& shape) { return Zeros(shape, Dtype::kFloat32); };
    Array x = zeros(Shape{2, 3, 5, 5});
    Array w = zeros(Shape{4, 3, 3, 3});
    ExpectError<DimensionError>([&] { Conv(zeros(Shape{3}), w, std::nullopt, {}, {}); },
                                "conv: x must have a batch and a channel axis, got shape (3,)");
    ExpectError<DimensionError>([&] { Conv(x, zeros(Shape{4, 2, 3, 3}), std::nullopt, {1, 1}, {0, 0}); },
                                "conv: x (2, 3, 5, 5) has 3 channels but w (4, 2, 3, 3) takes 2 (axis 1)");
    ExpectError<DimensionError>([&] { Conv(x, w, zeros(Shape{3}), {1, 1}, {0, 0}); },
                                "conv: b must have shape (4,) to match w (4, 3, 3, 3), got (3,)");
    ExpectError<DimensionError>([&] { Conv(x, w, std::nullopt, {1}, {0, 0}); },
                                "conv: stride must have one value per spatial axis of x (2, 3, 5, 5), got (1,)");
    ExpectError<DimensionError>([&] { Conv(x, w, std::nullopt, {1, 1}, {0, 0, 0}); },
                                "conv: pad must have one value per spatial axis of x (2, 3, 5, 5), got (0, 0, 0)");
    ExpectError<DimensionError>(
            [&] { Conv(x, zeros(Shape{4, 3, 7, 3}), std::nullopt, {1, 1}, {0, 0}); },
            "conv: the output would have size -1 along spatial axis 0 (input 5, kernel 7, stride 1, pad 0)");
    ExpectError<DimensionError>(
            [&] { ConvTranspose(x, zeros(Shape{3, 2, 3, 3}), std::nullopt, {2, 2}, {0, 0}, Dims{13, 11}); },
            "conv_transpose: outsize (13, 11) does not fit x (2, 3, 5, 5) along spatial axis 0: a convolution of size "
            "13 with kernel 3, stride 2 and pad 0 gives 6 (6 with cover_all), not 5");
}

}  // namespace
}  // namespace chainerx
