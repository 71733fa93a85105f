#include "chainerx/routines/pooling.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <vector>

#include "testing.h"

namespace chainerx {
namespace {

using testing::CheckGradient;
using testing::ExpectAllClose;
using testing::ExpectThrowWith;
using testing::GradientOf;
using testing::ToVector;

// Every multi-index of an extent, in C order.
std::vector<Shape> Positions(const Shape& extent) {
    std::vector<Shape> all;
    if (extent.GetTotalSize() == 0) return all;
    Shape at(extent.ndim(), 0);
    while (true) {
        all.push_back(at);
        int d = extent.ndim() - 1;
        for (; d >= 0; --d) {
            if (++at[d] < extent[d]) break;
            at[d] = 0;
        }
        if (d < 0) return all;
    }
}

// reduce(the window's values inside the input, the window's size with padding).
using Reduce = std::function<double(const std::vector<double>&, int64_t)>;

// Pooling by direct loops over every window of every plane.
std::vector<double> NaivePool(const Array& x, const Dims& ksize, const Dims& stride, const Dims& pad, bool cover_all,
                              const Reduce& reduce) {
    std::vector<double> values = ToVector<double>(x);
    Shape in(x.shape().begin() + 2, x.shape().end());
    Shape out_extent;
    for (int d = 0; d < in.ndim(); ++d) {
        out_extent.push_back((in[d] + 2 * pad[d] - ksize[d] + (cover_all ? stride[d] - 1 : 0)) / stride[d] + 1);
    }
    Shape window(ksize.begin(), ksize.end());
    std::vector<double> out;
    for (int64_t plane = 0; plane < x.shape()[0] * x.shape()[1]; ++plane) {
        for (const Shape& o : Positions(out_extent)) {
            std::vector<double> inside;
            for (const Shape& i : Positions(window)) {
                int64_t flat = 0;
                bool in_input = true;
                for (int d = 0; d < in.ndim(); ++d) {
                    int64_t at = o[d] * stride[d] - pad[d] + i[d];
                    in_input &= 0 <= at && at < in[d];
                    flat = flat * in[d] + at;
                }
                if (in_input) inside.push_back(values[plane * in.GetTotalSize() + flat]);
            }
            out.push_back(reduce(inside, window.GetTotalSize()));
        }
    }
    return out;
}

double MaxOf(const std::vector<double>& v, int64_t) {
    return v.empty() ? -std::numeric_limits<double>::infinity() : *std::max_element(v.begin(), v.end());
}
double MeanWithZeros(const std::vector<double>& v, int64_t window) {
    return std::accumulate(v.begin(), v.end(), 0.0) / window;
}
double MeanOfInside(const std::vector<double>& v, int64_t) {
    return std::accumulate(v.begin(), v.end(), 0.0) / v.size();
}

struct PoolCase {
    Shape shape;
    Dims ksize;
    Dims stride;
    Dims pad;
    bool cover_all;
};

// 1-, 2- and 3-d; batch 1, odd extents, overlapping windows, padding and cover_all.
const std::vector<PoolCase> kCases = {
        {{2, 3, 7}, {3}, {2}, {1}, true},
        {{1, 2, 5, 6}, {2, 2}, {2, 2}, {0, 0}, true},
        {{2, 3, 5, 7}, {3, 2}, {2, 1}, {1, 0}, false},
        {{2, 1, 4, 5}, {3, 3}, {1, 1}, {2, 2}, false},
        {{1, 2, 3, 5, 4}, {3, 2, 2}, {2, 2, 2}, {1, 1, 1}, true},
};

TEST(PoolingTest, MaxPoolMatchesNaiveLoops) {
    for (const PoolCase& c : kCases) {
        for (Dtype dtype : {Dtype::kFloat16, Dtype::kFloat32, Dtype::kFloat64}) {
            Array x = AsType(RandomUniform(-3, 3, c.shape), dtype);
            Array y = MaxPool(x, c.ksize, c.stride, c.pad, c.cover_all);
            EXPECT_EQ(y.dtype(), dtype);
            // The maximum is one of the inputs: exact in every dtype (-inf where cover_all adds a
            // window wholly in the padding).
            EXPECT_EQ(ToVector<double>(y), NaivePool(x, c.ksize, c.stride, c.pad, c.cover_all, MaxOf));
        }
    }
}

TEST(PoolingTest, AveragePoolMatchesNaiveLoops) {
    for (const PoolCase& c : kCases) {
        for (Dtype dtype : {Dtype::kFloat16, Dtype::kFloat32, Dtype::kFloat64}) {
            Array x = AsType(RandomUniform(-3, 3, c.shape), dtype);
            double tol = dtype == Dtype::kFloat16 ? 2e-3 : dtype == Dtype::kFloat32 ? 1e-6 : 1e-12;
            ExpectAllClose(AveragePool(x, c.ksize, c.stride, c.pad, AveragePoolPadMode::kZero),
                           NaivePool(x, c.ksize, c.stride, c.pad, false, MeanWithZeros), tol);
            ExpectAllClose(AveragePool(x, c.ksize, c.stride, c.pad, AveragePoolPadMode::kIgnore),
                           NaivePool(x, c.ksize, c.stride, c.pad, false, MeanOfInside), tol);
        }
    }
}

TEST(PoolingTest, NonContiguousInput) {
    Array x = Transpose(RandomUniform(-1, 1, Shape{5, 6, 3, 2}));  // (2, 3, 6, 5), reversed strides
    ASSERT_FALSE(x.IsContiguous());
    Dims k{3, 2};
    Dims s{2, 2};
    Dims p{1, 1};
    EXPECT_EQ(ToVector<double>(MaxPool(x, k, s, p, true)), NaivePool(x, k, s, p, true, MaxOf));
    ExpectAllClose(AveragePool(x, k, s, p, AveragePoolPadMode::kIgnore), NaivePool(x, k, s, p, false, MeanOfInside),
                   1e-12);
}

TEST(PoolingTest, PaddingNeverWins) {
    Array x = Negative(Add(AsType(Reshape(Arange(0, 9), Shape{1, 1, 3, 3}), Dtype::kFloat64), Scalar{1}));
    Array y = MaxPool(x, {3, 3}, {1, 1}, {1, 1});
    EXPECT_EQ(ToVector<double>(y), NaivePool(x, {3, 3}, {1, 1}, {1, 1}, false, MaxOf));
    for (double v : ToVector<double>(y)) EXPECT_LT(v, 0);
}

// Distinct values far apart compared with the numerical gradient's step: no ties.
Array DistinctValues(const Shape& shape) {
    int64_t n = shape.GetTotalSize();
    std::vector<double> v(n);
    for (int64_t i = 0; i < n; ++i) v[i] = static_cast<double>((i * 7919) % n) / n;
    return testing::MakeArray<double>(shape, v);
}

TEST(PoolingTest, Gradients) {
    // Cases without windows wholly in the padding (whose -inf would make the differences NaN).
    for (const PoolCase& c : {kCases[0], kCases[2], kCases[3]}) {
        auto max_pool = [&c](const Array& x) { return MaxPool(x, c.ksize, c.stride, c.pad, c.cover_all); };
        Array x = DistinctValues(c.shape);
        CheckGradient(max_pool, x);
        // Squared, the first derivative depends on the pooled values, so the second one runs the
        // gather (the scatter's backward).
        auto max_pool_squared = [&](const Array& a) { return Square(max_pool(a)); };
        CheckGradient(GradientOf(max_pool_squared, RandomUniform(0.5, 1.5, max_pool(x).shape())), x);
        for (AveragePoolPadMode mode : {AveragePoolPadMode::kZero, AveragePoolPadMode::kIgnore}) {
            auto average_pool = [&c, mode](const Array& a) {
                return Square(AveragePool(a, c.ksize, c.stride, c.pad, mode));
            };
            CheckGradient(average_pool, x);
            CheckGradient(GradientOf(average_pool, RandomUniform(0.5, 1.5, average_pool(x).shape())), x);
        }
    }
}

TEST(PoolingTest, Errors) {
    Array x = Zeros(Shape{2, 3, 4, 5}, Dtype::kFloat32);
    ExpectThrowWith<DimensionError>(
            [&] { MaxPool(x, {2, 6}, {2, 6}, {0, 0}); },
            "max_pool: the window of size 6 does not fit spatial axis 1 of extent 5 with padding 0");
    ExpectThrowWith<DimensionError>(
            [&] { AveragePool(x, {2, 2, 2}, {2, 2, 2}, {0, 0, 0}); },
            "average_pool: ksize (2, 2, 2) has 3 entries, but x of shape (2, 3, 4, 5) has 2 spatial axes");
    ExpectThrowWith<DimensionError>([&] { MaxPool(x, {2, 2}, {0, 1}, {0, 0}); },
                                    "every entry of stride must be at least 1, got stride (0, 1)");
    ExpectThrowWith<DimensionError>([&] { MaxPool(x, {2, 2}, {1, 1}, {0, -1}); },
                                    "every entry of pad must be at least 0");
    ExpectThrowWith<DimensionError>([&] { MaxPool(Zeros(Shape{2, 3}, Dtype::kFloat32), {}, {}, {}); },
                                    "at least one spatial axis, got shape (2, 3)");
    ExpectThrowWith<DtypeError>([&] { MaxPool(Zeros(Shape{2, 3, 4}, Dtype::kInt32), {2}, {2}, {0}); },
                                "max_pool requires a floating dtype, got int32");
}

}  // namespace
}  // namespace chainerx
