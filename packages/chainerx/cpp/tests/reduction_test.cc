#include "chainerx/routines/reduction.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "testing.h"

namespace chainerx {
namespace {

using testing::CheckGradient;
using testing::ExpectAllClose;
using testing::MakeArray;
using testing::ToVector;

Array Sample() { return MakeArray<double>(Shape{2, 3}, {1, 5, 3, 4, 2, 6}); }

TEST(ReductionTest, Sum) {
    ExpectAllClose(Sum(Sample()), {21});
    ExpectAllClose(Sum(Sample(), Axes{0}), {5, 7, 9});
    Array k = Sum(Sample(), Axes{-1}, true);
    EXPECT_EQ(k.shape(), (Shape{2, 1}));
    ExpectAllClose(k, {9, 12});
    EXPECT_EQ(Sum(Zeros(Shape{3}, Dtype::kInt8)).dtype(), Dtype::kInt64);
    EXPECT_EQ(ToVector<int64_t>(Sum(Ones(Shape{300}, Dtype::kInt8)))[0], 300);
    ExpectAllClose(Sum(Zeros(Shape{0, 2}, Dtype::kFloat32), Axes{0}), {0, 0});
    ExpectAllClose(Sum(Transpose(Sample()), Axes{1}), {5, 7, 9});
    CheckGradient([](const Array& x) { return Sum(x, Axes{1}); }, Sample());
}

TEST(ReductionTest, MeanVar) {
    ExpectAllClose(Mean(Sample(), Axes{1}), {3, 4});
    ExpectAllClose(Var(Sample(), Axes{1}), {8.0 / 3, 8.0 / 3});
    EXPECT_EQ(Mean(Zeros(Shape{2}, Dtype::kInt32)).dtype(), Dtype::kFloat64);
    CheckGradient([](const Array& x) { return Var(x, Axes{0}); }, Sample());
}

TEST(ReductionTest, MaxMinArgs) {
    ExpectAllClose(AMax(Sample(), Axes{1}), {5, 6});
    ExpectAllClose(AMin(Sample()), {1});
    EXPECT_EQ(ToVector<int64_t>(ArgMax(Sample(), 1)), (std::vector<int64_t>{1, 2}));
    EXPECT_EQ(ToVector<int64_t>(ArgMin(Sample())), (std::vector<int64_t>{0}));
    Array nan = MakeArray<double>(Shape{3}, {1, std::numeric_limits<double>::quiet_NaN(), 3});
    EXPECT_TRUE(std::isnan(ToVector<double>(AMax(nan))[0]));
    EXPECT_EQ(ToVector<int64_t>(ArgMax(nan))[0], 1);
    EXPECT_THROW(AMax(Zeros(Shape{0}, Dtype::kFloat32)), DimensionError);
    EXPECT_THROW(ArgMax(Zeros(Shape{2, 0}, Dtype::kFloat32), 1), DimensionError);
    CheckGradient([](const Array& x) { return AMax(x, Axes{0}); }, Sample());
}

TEST(ReductionTest, AllAny) {
    Array b = MakeArray<bool>(Shape{2, 2}, {true, false, true, true});
    EXPECT_EQ(ToVector<bool>(All(b, Axes{1})), (std::vector<bool>{false, true}));
    EXPECT_EQ(ToVector<bool>(Any(b, Axes{0})), (std::vector<bool>{true, true}));
    EXPECT_TRUE(ToVector<bool>(All(Zeros(Shape{0}, Dtype::kBool)))[0]);
}

TEST(ReductionTest, LogsumexpAndSoftmax) {
    Array x = MakeArray<double>(Shape{2, 2}, {1, 2, 1000, 1000});
    ExpectAllClose(Logsumexp(x, Axes{1}), {std::log(std::exp(1.0) + std::exp(2.0)), 1000 + std::log(2.0)});
    Array ls = LogSoftmax(x);
    ExpectAllClose(ls, {1 - std::log(std::exp(1.0) + std::exp(2.0)), 2 - std::log(std::exp(1.0) + std::exp(2.0)),
                        -std::log(2.0), -std::log(2.0)});
    ExpectAllClose(Sum(Softmax(x), Axes{1}), {1, 1});
    Array small = MakeArray<double>(Shape{2, 3}, {0.1, 0.5, -0.3, 1, 2, 3});
    CheckGradient([](const Array& a) { return LogSoftmax(a); }, small);
    CheckGradient([](const Array& a) { return Softmax(a); }, small);
    CheckGradient([](const Array& a) { return Logsumexp(a); }, small);
}

}  // namespace
}  // namespace chainerx
