#include "chainerx/routines/indexing.h"

#include <gtest/gtest.h>

#include "testing.h"

namespace chainerx {
namespace {

using testing::CheckGradient;
using testing::ExpectAllClose;
using testing::MakeArray;
using testing::ToVector;

Array Iota(const Shape& shape) { return Reshape(AsType(Arange(0, shape.GetTotalSize()), Dtype::kFloat64), shape); }

TEST(IndexingTest, BasicIndexing) {
    Array a = Iota(Shape{3, 4});
    ExpectAllClose(At(a, {1}), {4, 5, 6, 7});
    ExpectAllClose(At(a, {-1, -1}), {11});
    ExpectAllClose(At(a, {Slice{1, std::nullopt, 1}, Slice{std::nullopt, std::nullopt, 2}}), {4, 6, 8, 10});
    ExpectAllClose(At(a, {Slice{std::nullopt, std::nullopt, -1}, 0}), {8, 4, 0});
    ExpectAllClose(At(a, {ArrayIndex::Ellipsis(), 3}), {3, 7, 11});
    EXPECT_EQ(At(a, {ArrayIndex::NewAxis(), 0}).shape(), (Shape{1, 4}));
    EXPECT_EQ(At(a, {Slice{5, 9, 1}}).shape(), (Shape{0, 4}));
    ExpectAllClose(At(a, {Slice{-2, -5, -1}, 1}), {5, 1});
    EXPECT_EQ(At(a, {1}).data(), a.data());
    try {
        At(a, {3});
        FAIL() << "expected IndexError";
    } catch (const IndexError& e) {
        EXPECT_STREQ(e.what(), "index 3 is out of bounds for axis 0 with size 3");
    }
    EXPECT_THROW(At(a, {0, 0, 0}), IndexError);
    CheckGradient([](const Array& x) { return At(x, {Slice{1, 3, 1}, Slice{std::nullopt, std::nullopt, -2}}); }, a);
}

TEST(IndexingTest, IntegerArrays) {
    Array a = Iota(Shape{2, 3, 4});
    // Adjacent advanced indices (arrays and an integer) keep their place: shape (2, 2).
    Array rows = MakeArray<int64_t>(Shape{2}, {0, -1});
    Array adjacent = At(a, {Slice{}, 1, rows});
    EXPECT_EQ(adjacent.shape(), (Shape{2, 2}));
    ExpectAllClose(adjacent, {4, 7, 16, 19});
    // Separated by a slice, the broadcast index axes come first: shape (2, 1, 3).
    Array i = MakeArray<int32_t>(Shape{2, 1}, {1, 0});
    Array k = MakeArray<int8_t>(Shape{1}, {2});
    Array separated = At(a, {i, Slice{}, k});
    EXPECT_EQ(separated.shape(), (Shape{2, 1, 3}));
    ExpectAllClose(separated, {14, 18, 22, 2, 6, 10});
    // A copy, not a view.
    EXPECT_NE(separated.data(), a.data());
    // Broadcast together: (2, 1) with (3,) gives (2, 3), then the last axis.
    Array j = MakeArray<int64_t>(Shape{3}, {2, 0, 1});
    Array both = At(a, {i, j});
    EXPECT_EQ(both.shape(), (Shape{2, 3, 4}));
    ExpectAllClose(At(both, {Slice{}, Slice{}, 0}), {20, 12, 16, 8, 0, 4});
    try {
        At(a, {Slice{}, MakeArray<int64_t>(Shape{2}, {0, -4})});
        FAIL() << "expected IndexError";
    } catch (const IndexError& e) {
        EXPECT_STREQ(e.what(), "index -4 is out of bounds for axis 1 with size 3");
    }
    try {
        At(a, {i, MakeArray<int64_t>(Shape{3}, {0, 0, 0}), MakeArray<int64_t>(Shape{2}, {0, 0})});
        FAIL() << "expected IndexError";
    } catch (const IndexError& e) {
        EXPECT_STREQ(e.what(),
                     "shape mismatch: indexing arrays could not be broadcast together with shapes (2, 1) (3,) (2,)");
    }
    EXPECT_THROW(At(a, {MakeArray<double>(Shape{1}, {0})}), IndexError);
}

TEST(IndexingTest, BooleanArrays) {
    Array a = Iota(Shape{2, 3});
    Array mask = MakeArray<bool>(Shape{2, 3}, {true, false, false, false, true, true});
    ExpectAllClose(At(a, {mask}), {0, 4, 5});
    Array column_mask = MakeArray<bool>(Shape{3}, {false, true, true});
    Array m = At(a, {ArrayIndex::Ellipsis(), column_mask});
    EXPECT_EQ(m.shape(), (Shape{2, 2}));
    ExpectAllClose(m, {1, 2, 4, 5});
    // A 0-d boolean array adds an axis of length 1 (true) or 0 (false).
    EXPECT_EQ(At(a, {MakeArray<bool>(Shape{}, {true})}).shape(), (Shape{1, 2, 3}));
    EXPECT_EQ(At(a, {Slice{}, MakeArray<bool>(Shape{}, {false})}).shape(), (Shape{2, 0, 3}));
    try {
        At(a, {Slice{}, MakeArray<bool>(Shape{2}, {true, true})});
        FAIL() << "expected IndexError";
    } catch (const IndexError& e) {
        EXPECT_STREQ(e.what(),
                     "boolean index did not match indexed array along axis 1; size of axis is 3 but size of "
                     "corresponding boolean axis is 2");
    }
    EXPECT_THROW(At(a, {mask, 0}), IndexError);  // too many indices: the mask names two axes
}

TEST(IndexingTest, AdvancedIndexingGradient) {
    Array idx = MakeArray<int64_t>(Shape{4}, {2, 0, 2, 2});
    // Repeated indices accumulate their gradients.
    Array x = Iota(Shape{3, 2}).RequireGrad();
    Sum(At(x, {idx, 1})).Backward();
    ExpectAllClose(*x.GetGrad(), {0, 1, 0, 0, 0, 3});
    Array a = Iota(Shape{3, 2, 2});
    CheckGradient([&](const Array& v) { return At(v, {idx, Slice{}, MakeArray<int64_t>(Shape{1}, {1})}); }, a);
    // Second order: the gradient of v -> d/dv sum(v[idx] ** 3) is 6 v[idx] scattered back.
    CheckGradient(
            [&](const Array& v) {
                // The numerical passes give arrays outside the graph.
                Array w = v.IsGradRequired() ? v : Copy(v).RequireGrad();
                Array y = Sum(Power(At(w, {idx}), Scalar{3}));
                return *Grad({y}, {w}, std::nullopt, DoubleBackpropOption::kEnable)[0];
            },
            a);
}

TEST(IndexingTest, Take) {
    Array a = Iota(Shape{3, 2});
    Array idx = MakeArray<int64_t>(Shape{2, 2}, {2, 0, -1, 1});
    Array t = Take(a, idx, 0);
    EXPECT_EQ(t.shape(), (Shape{2, 2, 2}));
    ExpectAllClose(t, {4, 5, 0, 1, 4, 5, 2, 3});
    ExpectAllClose(Take(a, MakeArray<int32_t>(Shape{2}, {5, 0})), {5, 0});
    EXPECT_THROW(Take(a, MakeArray<int64_t>(Shape{1}, {3}), 0), IndexError);
    EXPECT_THROW(Take(a, MakeArray<double>(Shape{1}, {0}), 0), IndexError);
    // NumPy's other modes: modulo the axis length, or clipped into it (negative indices too).
    Array far = MakeArray<int64_t>(Shape{4}, {3, -4, 7, -1});
    ExpectAllClose(Take(a, far, 0, IndexBoundsMode::kWrap), {0, 1, 4, 5, 2, 3, 4, 5});
    ExpectAllClose(Take(a, far, 0, IndexBoundsMode::kClip), {4, 5, 0, 1, 4, 5, 0, 1});
    EXPECT_THROW(Take(Zeros(Shape{0}, Dtype::kFloat32), far, 0, IndexBoundsMode::kWrap), IndexError);
    // Repeated indices accumulate their gradients.
    Array x = MakeArray<double>(Shape{3}, {1, 2, 3}).RequireGrad();
    Sum(Take(x, MakeArray<int64_t>(Shape{3}, {0, 0, 2}))).Backward();
    ExpectAllClose(*x.GetGrad(), {2, 0, 1});
    CheckGradient([&](const Array& v) { return Take(v, idx, 0); }, a);
}

TEST(IndexingTest, Where) {
    Array cond = MakeArray<bool>(Shape{3}, {true, false, true});
    Array x = MakeArray<double>(Shape{3}, {1, 2, 3});
    ExpectAllClose(Where(cond, x, Scalar{0}), {1, 0, 3});
    ExpectAllClose(Where(cond, Scalar{-1}, x), {-1, 2, -1});
    Array w = Where(MakeArray<bool>(Shape{2, 1}, {true, false}), x, MakeArray<int32_t>(Shape{1}, {7}));
    EXPECT_EQ(w.dtype(), Dtype::kFloat64);
    ExpectAllClose(w, {1, 2, 3, 7, 7, 7});
    CheckGradient([&](const Array& v) { return Where(cond, v, Square(v)); }, x);
}

TEST(IndexingTest, Nonzero) {
    Array a = MakeArray<int32_t>(Shape{2, 3}, {0, 1, 0, 2, 0, 3});
    std::vector<Array> nz = Nonzero(a);
    ASSERT_EQ(nz.size(), 2u);
    EXPECT_EQ(ToVector<int64_t>(nz[0]), (std::vector<int64_t>{0, 1, 1}));
    EXPECT_EQ(ToVector<int64_t>(nz[1]), (std::vector<int64_t>{1, 0, 2}));
}

TEST(IndexingTest, SetItem) {
    Array a = Zeros(Shape{2, 3}, Dtype::kInt32);
    SetItem(a, {Slice{}, 1}, MakeArray<double>(Shape{1}, {7.9}));
    EXPECT_EQ(ToVector<int32_t>(a), (std::vector<int32_t>{0, 7, 0, 0, 7, 0}));
    // Advanced indices: the last of repeated positions wins; value is broadcast.
    Array b = Zeros(Shape{3, 2}, Dtype::kFloat64);
    SetItem(b, {MakeArray<int64_t>(Shape{3}, {2, 0, 2})}, MakeArray<double>(Shape{3, 1}, {1, 2, 3}));
    ExpectAllClose(b, {2, 2, 0, 0, 3, 3});
    SetItem(b, {Slice{}, MakeArray<bool>(Shape{2}, {false, true})}, MakeArray<double>(Shape{}, {-1}));
    ExpectAllClose(b, {2, -1, 0, -1, 3, -1});
    Array g = Zeros(Shape{2}, Dtype::kFloat32).RequireGrad();
    EXPECT_THROW(SetItem(g, {0}, Ones(Shape{}, Dtype::kFloat32)), ChainerxError);
    EXPECT_THROW(SetItem(g, {MakeArray<int64_t>(Shape{1}, {0})}, Ones(Shape{}, Dtype::kFloat32)), ChainerxError);
}

}  // namespace
}  // namespace chainerx
