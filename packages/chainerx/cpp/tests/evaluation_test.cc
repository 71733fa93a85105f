#include "chainerx/routines/evaluation.h"

#include <gtest/gtest.h>

#include <cmath>

#include "testing.h"

namespace chainerx {
namespace {

using testing::ExpectAllClose;
using testing::ExpectThrowWith;
using testing::MakeArray;
using testing::ToVector;

Array Scores() { return MakeArray<double>(Shape{4, 2}, {0.1, 0.9, 0.8, 0.2, 0.3, 0.7, 0.6, 0.4}); }

TEST(EvaluationTest, Accuracy) {
    Array t = MakeArray<int64_t>(Shape{4}, {1, 1, -1, 0}, Dtype::kInt32);
    Array acc = Accuracy(Scores(), t);
    EXPECT_EQ(acc.shape(), Shape{});
    EXPECT_EQ(acc.dtype(), Dtype::kFloat64);
    ExpectAllClose(acc, {0.5});
    ExpectAllClose(Accuracy(Scores(), t, -1), {2.0 / 3});
    EXPECT_EQ(Accuracy(AsType(Scores(), Dtype::kFloat16), t).dtype(), Dtype::kFloat16);
    // Argmax over axis 1 of (n, classes, rest...) against labels (n, rest...).
    Array y3 = Transpose(Reshape(Scores(), Shape{2, 2, 2}), Axes{0, 2, 1});
    ExpectAllClose(Accuracy(y3, MakeArray<int64_t>(Shape{2, 2}, {1, 0, 1, 1})), {0.75});
}

TEST(EvaluationTest, AccuracyWithNothingToCount) {
    ExpectAllClose(Accuracy(Scores(), MakeArray<int64_t>(Shape{4}, {-1, -1, -1, -1}), -1), {0});
    Array empty = Accuracy(Zeros(Shape{0, 2}, Dtype::kFloat32), Zeros(Shape{0}, Dtype::kInt64));
    EXPECT_TRUE(std::isnan(ToVector<double>(empty)[0]));
}

TEST(EvaluationTest, Errors) {
    ExpectThrowWith<DtypeError>([] { Accuracy(Scores(), Zeros(Shape{4}, Dtype::kFloat32)); },
                                "accuracy: labels must have an integer dtype, got float32");
    ExpectThrowWith<DimensionError>([] { Accuracy(Scores(), Zeros(Shape{4, 2}, Dtype::kInt32)); },
                                    "accuracy: labels t must have y's shape without axis 1 (y of shape (4, 2)), "
                                    "got shape (4, 2)");
}

}  // namespace
}  // namespace chainerx
