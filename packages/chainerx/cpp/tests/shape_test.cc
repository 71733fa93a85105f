#include "chainerx/shape.h"

#include <gtest/gtest.h>

namespace chainerx {
namespace {

TEST(ShapeTest, BasicsAndText) {
    Shape s{2, 3, 4};
    EXPECT_EQ(s.ndim(), 3);
    EXPECT_EQ(s.GetTotalSize(), 24);
    EXPECT_EQ(Shape{}.GetTotalSize(), 1);
    EXPECT_EQ(ToString(s), "(2, 3, 4)");
    EXPECT_EQ(ToString(Shape{5}), "(5,)");
    s.insert(1, 7);
    EXPECT_EQ(s, (Shape{2, 7, 3, 4}));
    s.erase(0);
    EXPECT_EQ(s, (Shape{7, 3, 4}));
}

TEST(ShapeTest, TooManyDimensionsIsADimensionError) {
    Shape s;
    for (int i = 0; i < kMaxNdim; ++i) s.push_back(1);
    EXPECT_THROW(s.push_back(1), DimensionError);
}

TEST(ShapeTest, ContiguousStridesAndCheck) {
    EXPECT_EQ(ContiguousStrides(Shape{2, 3, 4}, 4), (Strides{48, 16, 4}));
    EXPECT_TRUE(IsContiguous(Shape{2, 3}, Strides{12, 4}, 4));
    EXPECT_FALSE(IsContiguous(Shape{2, 3}, Strides{4, 8}, 4));
    EXPECT_TRUE(IsContiguous(Shape{1, 3}, Strides{999, 4}, 4));
    EXPECT_TRUE(IsContiguous(Shape{0, 3}, Strides{4, 8}, 4));
}

TEST(ShapeTest, Broadcasting) {
    EXPECT_EQ(BroadcastShapes(Shape{3, 1}, Shape{4}), (Shape{3, 4}));
    EXPECT_EQ(BroadcastShapes(Shape{}, Shape{2, 2}), (Shape{2, 2}));
    EXPECT_EQ(BroadcastShapes(Shape{0, 1}, Shape{1, 5}), (Shape{0, 5}));
    try {
        BroadcastShapes(Shape{2, 3}, Shape{4});
        FAIL() << "expected DimensionError";
    } catch (const DimensionError& e) {
        EXPECT_STREQ(e.what(), "operands could not be broadcast together with shapes (2, 3) and (4,)");
    }
}

TEST(ShapeTest, AxisNormalization) {
    EXPECT_EQ(NormalizeAxis(-1, 3), 2);
    EXPECT_THROW(NormalizeAxis(3, 3), DimensionError);
    EXPECT_EQ(NormalizeAxes(Axes{-1, 0}, 3), (Axes{0, 2}));
    EXPECT_THROW(NormalizeAxes(Axes{1, -2}, 3), DimensionError);
}

}  // namespace
}  // namespace chainerx
