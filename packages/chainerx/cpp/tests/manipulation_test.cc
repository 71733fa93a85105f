#include "chainerx/routines/manipulation.h"

#include <gtest/gtest.h>

#include "testing.h"

namespace chainerx {
namespace {

using testing::CheckGradient;
using testing::ExpectAllClose;
using testing::MakeArray;

Array Iota(const Shape& shape) { return Reshape(AsType(Arange(0, shape.GetTotalSize()), Dtype::kFloat64), shape); }

TEST(ManipulationTest, ReshapeViewsWhenPossible) {
    Array a = Iota(Shape{2, 3});
    Array r = Reshape(a, Shape{3, -1});
    EXPECT_EQ(r.shape(), (Shape{3, 2}));
    EXPECT_EQ(r.data(), a.data());
    Array t = Transpose(a);
    Array tr = Reshape(t, Shape{6});  // not expressible as a view of the transpose: copies
    EXPECT_NE(tr.data(), a.data());
    ExpectAllClose(tr, {0, 3, 1, 4, 2, 5});
    Array sliced = At(Iota(Shape{4, 6}), {Slice{std::nullopt, std::nullopt, 2}});
    EXPECT_EQ(Reshape(sliced, Shape{2, 2, 3}).data(), sliced.data());
    EXPECT_THROW(Reshape(a, Shape{4, -1}), DimensionError);
    EXPECT_THROW(Reshape(a, Shape{-1, -1}), DimensionError);
    CheckGradient([](const Array& x) { return Reshape(Transpose(x), Shape{3, 2}); }, a);
}

TEST(ManipulationTest, TransposeSwapMove) {
    Array a = Iota(Shape{2, 3, 4});
    EXPECT_EQ(Transpose(a, Axes{1, 2, 0}).shape(), (Shape{3, 4, 2}));
    EXPECT_EQ(Swapaxes(a, 0, -1).shape(), (Shape{4, 3, 2}));
    EXPECT_EQ(Moveaxis(a, {0}, {-1}).shape(), (Shape{3, 4, 2}));
    EXPECT_EQ(Moveaxis(a, {0, 1}, {-1, -2}).shape(), (Shape{4, 3, 2}));
    EXPECT_THROW(Transpose(a, Axes{0, 0, 1}), DimensionError);
    EXPECT_THROW(Transpose(a, Axes{0, 1}), DimensionError);
    CheckGradient([](const Array& x) { return Moveaxis(x, {0}, {2}); }, a);
}

TEST(ManipulationTest, BroadcastSqueezeExpand) {
    Array a = Iota(Shape{3, 1});
    Array b = BroadcastTo(a, Shape{2, 3, 4});
    EXPECT_EQ(b.strides()[0], 0);
    EXPECT_THROW(BroadcastTo(a, Shape{2, 2}), DimensionError);
    CheckGradient([](const Array& x) { return BroadcastTo(x, Shape{2, 3, 4}); }, a);
    EXPECT_EQ(Squeeze(Iota(Shape{1, 2, 1})).shape(), (Shape{2}));
    EXPECT_EQ(Squeeze(Iota(Shape{1, 2, 1}), Axes{-1}).shape(), (Shape{1, 2}));
    EXPECT_THROW(Squeeze(Iota(Shape{1, 2}), Axes{1}), DimensionError);
    EXPECT_EQ(ExpandDims(Iota(Shape{2}), -1).shape(), (Shape{2, 1}));
    EXPECT_EQ(AtLeast2D(Iota(Shape{3})).shape(), (Shape{1, 3}));
    EXPECT_EQ(AtLeast3D(Iota(Shape{2, 3})).shape(), (Shape{2, 3, 1}));
}

TEST(ManipulationTest, ConcatenateAndStack) {
    Array a = Iota(Shape{2, 2});
    Array b = AsType(Iota(Shape{2, 1}), Dtype::kInt32);
    Array c = Concatenate({a, b}, 1);
    EXPECT_EQ(c.dtype(), Dtype::kFloat64);
    ExpectAllClose(c, {0, 1, 0, 2, 3, 1});
    ExpectAllClose(Concatenate({a, a}, std::nullopt), {0, 1, 2, 3, 0, 1, 2, 3});
    EXPECT_THROW(Concatenate({a, Iota(Shape{3})}, 0), DimensionError);
    EXPECT_EQ(Stack({a, a}, 1).shape(), (Shape{2, 2, 2}));
    EXPECT_EQ(HStack({Iota(Shape{2}), Iota(Shape{3})}).shape(), (Shape{5}));
    EXPECT_EQ(VStack({Iota(Shape{2}), Iota(Shape{2})}).shape(), (Shape{2, 2}));
    EXPECT_EQ(DStack({a, a}).shape(), (Shape{2, 2, 2}));
    Array x = MakeArray<double>(Shape{2}, {1, 2}).RequireGrad();
    Array y = MakeArray<double>(Shape{1}, {3}).RequireGrad();
    Sum(Multiply(Concatenate({x, y}), MakeArray<double>(Shape{3}, {1, 2, 3}))).Backward();
    ExpectAllClose(*x.GetGrad(), {1, 2});
    ExpectAllClose(*y.GetGrad(), {3});
}

TEST(ManipulationTest, Split) {
    Array a = Iota(Shape{6});
    std::vector<Array> parts = Split(a, 3);
    ASSERT_EQ(parts.size(), 3u);
    ExpectAllClose(parts[1], {2, 3});
    std::vector<Array> at = Split(a, std::vector<int64_t>{1, 4});
    ExpectAllClose(at[0], {0});
    ExpectAllClose(at[2], {4, 5});
    EXPECT_THROW(Split(a, 4), DimensionError);
    EXPECT_EQ(VSplit(Iota(Shape{4, 2}), 2)[0].shape(), (Shape{2, 2}));
    EXPECT_EQ(HSplit(Iota(Shape{2, 4}), 2)[1].shape(), (Shape{2, 2}));
    EXPECT_EQ(DSplit(Iota(Shape{1, 1, 4}), 4).size(), 4u);
    CheckGradient([](const Array& x) { return Split(x, 2, 1)[1]; }, Iota(Shape{2, 4}));
}

TEST(ManipulationTest, RepeatAndFlip) {
    ExpectAllClose(Repeat(Iota(Shape{2, 2}), 2), {0, 0, 1, 1, 2, 2, 3, 3});
    ExpectAllClose(Repeat(Iota(Shape{2, 2}), std::vector<int64_t>{1, 2}, 0), {0, 1, 2, 3, 2, 3});
    CheckGradient([](const Array& x) { return Repeat(x, 3, 1); }, Iota(Shape{2, 2}));
    Array a = Iota(Shape{2, 3});
    ExpectAllClose(Flip(a), {5, 4, 3, 2, 1, 0});
    ExpectAllClose(Fliplr(a), {2, 1, 0, 5, 4, 3});
    ExpectAllClose(Flipud(a), {3, 4, 5, 0, 1, 2});
    CheckGradient([](const Array& x) { return Flip(x, Axes{1}); }, a);
}

}  // namespace
}  // namespace chainerx
