#include "chainerx/routines/normalization.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "testing.h"

namespace chainerx {
namespace {

using testing::CheckGradient;
using testing::ExpectAllClose;
using testing::ExpectThrowWith;
using testing::GradientOf;
using testing::ToVector;

// The per-channel statistics and normalization of x (N, C, S) over axes (0, 2), by direct loops.
struct NaiveBatchNorm {
    std::vector<double> mean;
    std::vector<double> var;
    std::vector<double> y;
};

NaiveBatchNorm Naive(const Array& x, const std::vector<double>& gamma, const std::vector<double>& beta,
                     const std::vector<double>* mean_in, const std::vector<double>* var_in, double eps) {
    std::vector<double> v = ToVector<double>(x);
    int64_t n = x.shape()[0];
    int64_t c = x.shape()[1];
    int64_t s = x.shape()[2];
    NaiveBatchNorm r{std::vector<double>(c), std::vector<double>(c), std::vector<double>(v.size())};
    for (int64_t j = 0; j < c; ++j) {
        double sum = 0;
        for (int64_t i = 0; i < n; ++i) {
            for (int64_t k = 0; k < s; ++k) sum += v[(i * c + j) * s + k];
        }
        r.mean[j] = sum / (n * s);
        double sq = 0;
        for (int64_t i = 0; i < n; ++i) {
            for (int64_t k = 0; k < s; ++k) sq += std::pow(v[(i * c + j) * s + k] - r.mean[j], 2);
        }
        r.var[j] = sq / (n * s);
        double mean = mean_in == nullptr ? r.mean[j] : (*mean_in)[j];
        double var = var_in == nullptr ? r.var[j] : (*var_in)[j];
        for (int64_t i = 0; i < n; ++i) {
            for (int64_t k = 0; k < s; ++k) {
                int64_t at = (i * c + j) * s + k;
                r.y[at] = gamma[j] * (v[at] - mean) / std::sqrt(var + eps) + beta[j];
            }
        }
    }
    return r;
}

TEST(NormalizationTest, BatchNormMatchesNaiveLoopsAndUpdatesRunningStatistics) {
    const std::vector<double> gamma{0.5, 1.5, 2};
    const std::vector<double> beta{-1, 0, 1};
    for (Dtype dtype : {Dtype::kFloat16, Dtype::kFloat32, Dtype::kFloat64}) {
        Array x = AsType(RandomUniform(-2, 2, Shape{5, 3, 7}), dtype);
        Array running_mean = testing::MakeArray<double>(Shape{3}, {0.1, 0.2, 0.3}, dtype);
        Array running_var = testing::MakeArray<double>(Shape{3}, {1, 2, 3}, dtype);
        Array y = BatchNorm(x, testing::MakeArray<double>(Shape{3}, gamma, dtype),
                            testing::MakeArray<double>(Shape{3}, beta, dtype), running_mean, running_var, 1e-3, 0.8,
                            Axes{0, 2});
        NaiveBatchNorm expected = Naive(x, gamma, beta, nullptr, nullptr, 1e-3);
        double tol = dtype == Dtype::kFloat16 ? 1e-2 : dtype == Dtype::kFloat32 ? 1e-5 : 1e-12;
        EXPECT_EQ(y.dtype(), dtype);
        ExpectAllClose(y, expected.y, tol);
        std::vector<double> expected_mean(3);
        std::vector<double> expected_var(3);
        for (int j = 0; j < 3; ++j) {
            expected_mean[j] = 0.8 * 0.1 * (j + 1) + 0.2 * expected.mean[j];
            expected_var[j] = 0.8 * (j + 1) + 0.2 * expected.var[j] * 35 / 34;  // unbiased: m / (m - 1), m = 35
        }
        ExpectAllClose(running_mean, expected_mean, tol);
        ExpectAllClose(running_var, expected_var, tol);
    }
}

TEST(NormalizationTest, ExplicitAxisAndNonContiguousInput) {
    // Explicit axis (0, 2) on a transposed x equals the loops on its contiguous copy.
    Array xt = Transpose(RandomUniform(-2, 2, Shape{4, 3, 6}));  // (6, 3, 4), not contiguous
    ASSERT_FALSE(xt.IsContiguous());
    std::vector<double> gamma{1, 2, 3};
    std::vector<double> beta{0, 0.5, 1};
    Array y = BatchNorm(xt, testing::MakeArray<double>(Shape{3}, gamma), testing::MakeArray<double>(Shape{3}, beta),
                        Zeros(Shape{3}, Dtype::kFloat64), Ones(Shape{3}, Dtype::kFloat64), 2e-5, 0.9, Axes{0, 2});
    ExpectAllClose(y, Naive(AsContiguous(xt), gamma, beta, nullptr, nullptr, 2e-5).y, 1e-12);

    // Axis 0 alone on (N, C, S): (C, S) channels, as the loops see (N, C * S, 1).
    Array x = RandomUniform(-2, 2, Shape{5, 3, 2});
    std::vector<double> gamma6{1, 2, 3, 4, 5, 6};
    std::vector<double> beta6{0, 1, 0, 1, 0, 1};
    Array y0 = BatchNorm(x, testing::MakeArray<double>(Shape{3, 2}, gamma6),
                         testing::MakeArray<double>(Shape{3, 2}, beta6), Zeros(Shape{3, 2}, Dtype::kFloat64),
                         Ones(Shape{3, 2}, Dtype::kFloat64), 2e-5, 0.9, Axes{0});
    ExpectAllClose(y0, Naive(Reshape(x, Shape{5, 6, 1}), gamma6, beta6, nullptr, nullptr, 2e-5).y, 1e-12);
}

TEST(NormalizationTest, FixedBatchNormUsesTheGivenStatistics) {
    Array x = RandomUniform(-2, 2, Shape{2, 3, 5});
    std::vector<double> gamma{0.5, 1.5, 2};
    std::vector<double> beta{-1, 0, 1};
    std::vector<double> mean{0.1, -0.2, 0.3};
    std::vector<double> var{0.5, 1, 2};
    auto arr = [](const std::vector<double>& v) { return testing::MakeArray<double>(Shape{3}, v); };
    ExpectAllClose(FixedBatchNorm(x, arr(gamma), arr(beta), arr(mean), arr(var), 1e-3, Axes{0, 2}),
                   Naive(x, gamma, beta, &mean, &var, 1e-3).y, 1e-12);
}

TEST(NormalizationTest, Gradients) {
    Array x = RandomUniform(-1, 1, Shape{4, 3, 2});
    Array gamma = RandomUniform(0.5, 1.5, Shape{3});
    Array beta = RandomUniform(-1, 1, Shape{3});
    auto batch_norm = [&](const Array& xv, const Array& g, const Array& b) {
        return BatchNorm(xv, g, b, Zeros(Shape{3}, Dtype::kFloat64), Ones(Shape{3}, Dtype::kFloat64), 1e-3, 0.9,
                         Axes{0, 2});
    };
    // Squared, so that second derivatives also pass through the gradient with respect to gy.
    auto of_x = [&](const Array& v) { return Square(batch_norm(v, gamma, beta)); };
    auto of_gamma = [&](const Array& v) { return Square(batch_norm(x, v, beta)); };
    auto of_beta = [&](const Array& v) { return Square(batch_norm(x, gamma, v)); };
    Array w = RandomUniform(0.5, 1.5, x.shape());
    CheckGradient(of_x, x, 1e-6, 1e-5);
    CheckGradient(GradientOf(of_x, w), x, 1e-6, 1e-4);
    CheckGradient(of_gamma, gamma, 1e-6, 1e-5);
    CheckGradient(GradientOf(of_gamma, w), gamma, 1e-6, 1e-4);
    CheckGradient(of_beta, beta, 1e-6, 1e-5);
    CheckGradient(GradientOf(of_beta, w), beta, 1e-6, 1e-4);

    Array mean = RandomUniform(-1, 1, Shape{3});
    Array var = RandomUniform(0.5, 1.5, Shape{3});
    const Axes channel_axes{0, 2};
    auto fixed_of_var = [&](const Array& v) {
        return Square(FixedBatchNorm(x, gamma, beta, mean, v, 1e-3, channel_axes));
    };
    auto fixed_of_x = [&](const Array& v) {
        return Square(FixedBatchNorm(v, gamma, beta, mean, var, 1e-3, channel_axes));
    };
    CheckGradient(fixed_of_var, var, 1e-6, 1e-5);
    CheckGradient(GradientOf(fixed_of_var, w), var, 1e-6, 1e-4);
    CheckGradient(GradientOf(fixed_of_x, w), x, 1e-6, 1e-4);
}

TEST(NormalizationTest, DefaultAxisIsTheBatchAxis) {
    Array x = RandomUniform(-2, 2, Shape{5, 3, 2});
    Array gamma = RandomUniform(0.5, 1.5, Shape{3, 2});
    Array beta = RandomUniform(-1, 1, Shape{3, 2});
    Array mean = RandomUniform(-1, 1, Shape{3, 2});
    Array var = RandomUniform(0.5, 1.5, Shape{3, 2});
    ExpectAllClose(FixedBatchNorm(x, gamma, beta, mean, var, 1e-3),
                   ToVector<double>(FixedBatchNorm(x, gamma, beta, mean, var, 1e-3, Axes{0})), 1e-12);
    Array rm = Zeros(Shape{3, 2}, Dtype::kFloat64);
    Array rv = Ones(Shape{3, 2}, Dtype::kFloat64);
    ExpectAllClose(BatchNorm(x, gamma, beta, rm, rv),
                   ToVector<double>(BatchNorm(x, gamma, beta, Zeros(Shape{3, 2}, Dtype::kFloat64),
                                              Ones(Shape{3, 2}, Dtype::kFloat64), 2e-5, 0.9, Axes{0})),
                   1e-12);
}

TEST(NormalizationTest, ParametersOfOtherFloatDtypesAreConverted) {
    const std::vector<double> gamma{0.5, 1.5, 2};
    const std::vector<double> beta{-1, 0, 1};
    Array x = AsType(RandomUniform(-2, 2, Shape{5, 3, 7}), Dtype::kFloat32);
    auto param = [](const std::vector<double>& v, Dtype dtype) {
        return testing::MakeArray<double>(Shape{3}, v, dtype);
    };
    Array running_mean = param({0.1, 0.2, 0.3}, Dtype::kFloat16);
    Array running_var = param({1, 2, 3}, Dtype::kFloat64);
    Array y = BatchNorm(x, param(gamma, Dtype::kFloat64), param(beta, Dtype::kFloat16), running_mean, running_var, 1e-3,
                        0.8, Axes{0, 2});
    NaiveBatchNorm expected = Naive(x, gamma, beta, nullptr, nullptr, 1e-3);
    EXPECT_EQ(y.dtype(), Dtype::kFloat32);
    ExpectAllClose(y, expected.y, 1e-5);
    // The running statistics keep their dtypes and receive the update.
    EXPECT_EQ(running_mean.dtype(), Dtype::kFloat16);
    EXPECT_EQ(running_var.dtype(), Dtype::kFloat64);
    std::vector<double> expected_mean(3);
    std::vector<double> expected_var(3);
    for (int j = 0; j < 3; ++j) {
        expected_mean[j] = 0.8 * 0.1 * (j + 1) + 0.2 * expected.mean[j];
        expected_var[j] = 0.8 * (j + 1) + 0.2 * expected.var[j] * 35 / 34;
    }
    ExpectAllClose(running_mean, expected_mean, 2e-3);
    ExpectAllClose(running_var, expected_var, 1e-5);

    std::vector<double> mean{0.1, -0.2, 0.3};
    std::vector<double> var{0.5, 1, 2};
    Array yf = FixedBatchNorm(x, param(gamma, Dtype::kFloat16), param(beta, Dtype::kFloat64),
                              param(mean, Dtype::kFloat64), param(var, Dtype::kFloat16), 1e-3, Axes{0, 2});
    EXPECT_EQ(yf.dtype(), Dtype::kFloat32);
    ExpectAllClose(yf, Naive(x, gamma, beta, &mean, &var, 1e-3).y, 1e-5);
}

TEST(NormalizationTest, Errors) {
    Array x = Zeros(Shape{2, 3, 4}, Dtype::kFloat32);
    Array c3 = Ones(Shape{3}, Dtype::kFloat32);
    const Axes axes{0, 2};
    ExpectThrowWith<DimensionError>(
            [&] { BatchNorm(x, Ones(Shape{4}, Dtype::kFloat32), c3, c3, c3, 2e-5, 0.9, axes); },
            "batch_norm: gamma must have shape (3,) (x's shape (2, 3, 4) without axes (0, 2)), got (4,)");
    // The default reduces over axis 0 only.
    ExpectThrowWith<DimensionError>(
            [&] { FixedBatchNorm(x, c3, c3, c3, c3); },
            "fixed_batch_norm: gamma must have shape (3, 4) (x's shape (2, 3, 4) without axes (0,)), got (3,)");
    ExpectThrowWith<DtypeError>([&] { FixedBatchNorm(x, c3, c3, Ones(Shape{3}, Dtype::kInt32), c3, 2e-5, axes); },
                                "fixed_batch_norm: mean must have a floating dtype, got int32");
    ExpectThrowWith<DtypeError>([&] { BatchNorm(Zeros(Shape{2, 3}, Dtype::kInt64), c3, c3, c3, c3); },
                                "batch_norm requires a floating dtype, got int64");
    ExpectThrowWith<ChainerxError>(
            [&] { BatchNorm(x, c3, c3, c3, Ones(Shape{3}, Dtype::kFloat32).RequireGrad(), 2e-5, 0.9, axes); },
            "batch_norm (update of running_var)");
}

}  // namespace
}  // namespace chainerx
