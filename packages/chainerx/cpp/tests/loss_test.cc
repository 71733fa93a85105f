#include "chainerx/routines/loss.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "testing.h"

namespace chainerx {
namespace {

using testing::CheckDoubleGradient;
using testing::CheckGradient;
using testing::ExpectAllClose;
using testing::ExpectThrowWith;
using testing::MakeArray;
using testing::ToVector;

TEST(LossTest, ElementwiseLossesByHand) {
    Array a = MakeArray<double>(Shape{5}, {0.0, 0.5, 1.0, 3.0, -2.0});
    Array b = Zeros(Shape{5}, Dtype::kFloat64);
    ExpectAllClose(AbsoluteError(a, b), {0, 0.5, 1, 3, 2});
    ExpectAllClose(SquaredError(a, b), {0, 0.25, 1, 9, 4});
    // Quadratic up to |d| = delta = 1, linear beyond: 1 * (3 - 0.5).
    ExpectAllClose(HuberLoss(a, b, 1.0), {0, 0.125, 0.5, 2.5, 1.5});
    Array f16 = SquaredError(AsType(a, Dtype::kFloat16), AsType(b, Dtype::kFloat16));
    EXPECT_EQ(f16.dtype(), Dtype::kFloat16);
    ExpectAllClose(f16, {0, 0.25, 1, 9, 4});
}

TEST(LossTest, GaussianKlDivergence) {
    Array mean = MakeArray<double>(Shape{2}, {0.0, 1.0});
    Array ln_var = MakeArray<double>(Shape{2}, {0.0, std::log(2.0)});
    // (mean^2 + var - ln_var - 1) / 2.
    double second = (1 + 2 - std::log(2.0) - 1) / 2;
    ExpectAllClose(GaussianKlDivergence(mean, ln_var), {0, second});
    ExpectAllClose(GaussianKlDivergence(mean, ln_var, LossReduction::kSum), {second});
    ExpectAllClose(GaussianKlDivergence(mean, ln_var, LossReduction::kMean), {second / 2});
}

TEST(LossTest, ElementwiseLossGradients) {
    // x - y stays away from 0 and from +-delta, where |.| and huber have kinks.
    Array x = MakeArray<double>(Shape{2, 3}, {0.3, -1.2, 2.0, 0.9, -0.4, 1.7});
    Array y = MakeArray<double>(Shape{2, 3}, {-0.2, 0.1, 0.4, 0.2, 0.5, -0.3});
    auto huber = [&y](const Array& v) { return HuberLoss(v, y, 0.8); };
    CheckGradient(huber, x);
    CheckDoubleGradient(huber, x);
    CheckGradient([&y](const Array& v) { return AbsoluteError(v, y); }, x);
    CheckDoubleGradient([&y](const Array& v) { return SquaredError(y, v); }, x);
    CheckDoubleGradient([&y](const Array& v) { return GaussianKlDivergence(v, y, LossReduction::kSum); }, x);
    CheckDoubleGradient([&y](const Array& v) { return GaussianKlDivergence(y, v); }, x);
}

// -(t log p + (1 - t) log(1 - p)) with p = sigmoid(x); 0 for label -1.
std::vector<double> NaiveSigmoidCrossEntropy(const std::vector<double>& x, const std::vector<int64_t>& t) {
    std::vector<double> out;
    for (size_t i = 0; i < x.size(); ++i) {
        double p = 1 / (1 + std::exp(-x[i]));
        out.push_back(t[i] == -1 ? 0 : -(t[i] * std::log(p) + (1 - t[i]) * std::log(1 - p)));
    }
    return out;
}

TEST(LossTest, SigmoidCrossEntropy) {
    std::vector<double> xv{-2.5, 0.0, 1.5, 3.0, -0.7, 0.2};
    std::vector<int64_t> tv{0, 1, 1, -1, 1, 0};
    Array x = MakeArray<double>(Shape{2, 3}, xv);
    Array t = MakeArray<int64_t>(Shape{2, 3}, tv, Dtype::kInt32);
    ExpectAllClose(SigmoidCrossEntropy(x, t), NaiveSigmoidCrossEntropy(xv, tv), 1e-12);
    ExpectAllClose(SigmoidCrossEntropy(Transpose(x), Transpose(t)),
                   NaiveSigmoidCrossEntropy({-2.5, 3.0, 0.0, -0.7, 1.5, 0.2}, {0, -1, 1, 1, 1, 0}), 1e-12);
    // Huge logits: the stable form gives 0 or |x|, not inf or NaN.
    Array huge = MakeArray<double>(Shape{2}, {-1000, 1000});
    ExpectAllClose(SigmoidCrossEntropy(huge, MakeArray<int64_t>(Shape{2}, {1, 1})), {1000, 0});
    CheckGradient([&t](const Array& v) { return SigmoidCrossEntropy(v, t); }, x);
    CheckDoubleGradient([&t](const Array& v) { return SigmoidCrossEntropy(v, t); }, x);
}

TEST(LossTest, SigmoidCrossEntropyGradientAtZeroLogit) {
    Array x = Zeros(Shape{3}, Dtype::kFloat64).RequireGrad();
    Backward({Sum(SigmoidCrossEntropy(x, MakeArray<int64_t>(Shape{3}, {0, 1, -1})))});
    ExpectAllClose(*x.GetGrad(), {0.5, -0.5, 0});
}

// logsumexp(x[i]) - x[i, t[i]] by direct loops; 0 for label -1.
std::vector<double> NaiveSoftmaxCrossEntropy(const std::vector<double>& x, const std::vector<int64_t>& t, int64_t c) {
    std::vector<double> out;
    for (size_t i = 0; i < t.size(); ++i) {
        double sum = 0;
        for (int64_t j = 0; j < c; ++j) sum += std::exp(x[i * c + j]);
        out.push_back(t[i] == -1 ? 0 : std::log(sum) - x[i * c + t[i]]);
    }
    return out;
}

TEST(LossTest, SoftmaxCrossEntropy) {
    std::vector<double> xv{0.5, -1.0, 2.0, 0.1, 0.0, 0.0, 0.0, 0.0, 3.0, 1.0, -2.0, 0.5};
    std::vector<int64_t> tv{2, -1, 0};
    Array x = MakeArray<double>(Shape{3, 4}, xv);
    Array t = MakeArray<int64_t>(Shape{3}, tv);
    std::vector<double> expected = NaiveSoftmaxCrossEntropy(xv, tv, 4);
    ExpectAllClose(SoftmaxCrossEntropy(x, t), expected, 1e-12);
    // A transposed (non-contiguous) view and the float16 / float32 kernels.
    ExpectAllClose(SoftmaxCrossEntropy(Transpose(Transpose(x).Copy()), t), expected, 1e-12);
    Array h = SoftmaxCrossEntropy(AsType(x, Dtype::kFloat16), AsType(t, Dtype::kInt8));
    EXPECT_EQ(h.dtype(), Dtype::kFloat16);
    ExpectAllClose(h, expected, 2e-3);
    ExpectAllClose(SoftmaxCrossEntropy(AsType(x, Dtype::kFloat32), t), expected, 1e-6);
    // Shifted by the row maximum: no overflow.
    ExpectAllClose(SoftmaxCrossEntropy(MakeArray<double>(Shape{1, 2}, {1000, 0}), MakeArray<int64_t>(Shape{1}, {1})),
                   {1000});
    EXPECT_EQ(SoftmaxCrossEntropy(Zeros(Shape{0, 3}, Dtype::kFloat32), Zeros(Shape{0}, Dtype::kInt64)).shape(),
              Shape{0});
}

TEST(LossTest, SoftmaxCrossEntropyGradients) {
    Array x = MakeArray<double>(Shape{3, 4}, {0.5, -1.0, 2.0, 0.1, 0.3, 0.2, -0.6, 0.0, 1.0, 1.1, -2.0, 0.5});
    Array t = MakeArray<int64_t>(Shape{3}, {2, -1, 0});
    auto loss = [&t](const Array& v) { return SoftmaxCrossEntropy(v, t); };
    CheckGradient(loss, x);
    CheckDoubleGradient(loss, x);
    // The ignored row gets no gradient at all.
    Array xg = Copy(x).RequireGrad();
    Backward({Sum(SoftmaxCrossEntropy(xg, t))});
    std::vector<double> g = ToVector<double>(*xg.GetGrad());
    for (int j = 4; j < 8; ++j) EXPECT_EQ(g[j], 0.0);
}

TEST(LossTest, Errors) {
    Array f = Zeros(Shape{2, 3}, Dtype::kFloat32);
    Array labels = Zeros(Shape{2}, Dtype::kInt32);
    ExpectThrowWith<DtypeError>([] { SquaredError(Zeros(Shape{2}, Dtype::kInt32), Zeros(Shape{2}, Dtype::kFloat32)); },
                                "squared_error requires a floating dtype, got int32");
    ExpectThrowWith<DtypeError>([&f] { SoftmaxCrossEntropy(f, Zeros(Shape{2}, Dtype::kFloat32)); },
                                "softmax_cross_entropy: labels must have an integer dtype, got float32");
    ExpectThrowWith<DtypeError>([&f] { SigmoidCrossEntropy(f, Zeros(Shape{2, 3}, Dtype::kBool)); },
                                "labels must have an integer dtype, got bool");
    ExpectThrowWith<DimensionError>([&f] { SigmoidCrossEntropy(f, Zeros(Shape{3, 2}, Dtype::kInt32)); },
                                    "x1 of shape (2, 3) and labels x2 of shape (3, 2) must have the same shape");
    ExpectThrowWith<DimensionError>([&labels] { SoftmaxCrossEntropy(Zeros(Shape{2}, Dtype::kFloat32), labels); },
                                    "x1 must be 2-D logits (samples, classes), got shape (2,)");
    ExpectThrowWith<DimensionError>([&f] { SoftmaxCrossEntropy(f, Zeros(Shape{3}, Dtype::kInt32)); },
                                    "labels x2 must have shape (2,) to match x1 of shape (2, 3), got (3,)");
    ExpectThrowWith<IndexError>([&f] { SoftmaxCrossEntropy(f, MakeArray<int64_t>(Shape{2}, {1, 3})); },
                                "label 3 of sample 1 is out of range for 3 classes");
    ExpectThrowWith<IndexError>([&f] { SoftmaxCrossEntropy(f, MakeArray<int64_t>(Shape{2}, {-5, 0})); },
                                "label -5 of sample 0 is out of range");
}

}  // namespace
}  // namespace chainerx
