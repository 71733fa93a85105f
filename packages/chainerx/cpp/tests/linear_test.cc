#include "chainerx/routines/linear.h"

#include <gtest/gtest.h>

#include "testing.h"

namespace chainerx {
namespace {

using testing::CheckDoubleGradient;
using testing::CheckGradient;
using testing::ExpectAllClose;
using testing::ExpectThrowWith;
using testing::MakeArray;
using testing::ToVector;

TEST(LinearTest, ByHand) {
    Array x = MakeArray<double>(Shape{2, 2}, {1, 2, 3, 4});
    Array w = MakeArray<double>(Shape{3, 2}, {1, 0, 0, 1, 1, -1});
    Array b = MakeArray<double>(Shape{3}, {0.5, 0, -1});
    ExpectAllClose(Linear(x, w), {1, 2, -1, 3, 4, -1});
    ExpectAllClose(Linear(x, w, b), {1.5, 2, -2, 3.5, 4, -2});
    // A transposed W view needs no copy and gives the same result.
    ExpectAllClose(Linear(x, Transpose(Transpose(w).Copy()), b), {1.5, 2, -2, 3.5, 4, -2});
}

TEST(LinearTest, BatchAxes) {
    Array x = Reshape(AsType(Arange(0, 12), Dtype::kFloat32), Shape{2, 3, 2});
    Array w = Ones(Shape{1, 2}, Dtype::kFloat32);
    Array y = Linear(x, w, std::nullopt, 2);
    EXPECT_EQ(y.shape(), (Shape{2, 3, 1}));
    ExpectAllClose(y, {1, 5, 9, 13, 17, 21});
    Array flat = Linear(x, Ones(Shape{1, 6}, Dtype::kFloat32));
    EXPECT_EQ(flat.shape(), (Shape{2, 1}));
    ExpectAllClose(flat, {15, 51});
    Array f16 = Linear(AsType(x, Dtype::kFloat16), Ones(Shape{1, 6}, Dtype::kFloat16));
    EXPECT_EQ(f16.dtype(), Dtype::kFloat16);
    ExpectAllClose(f16, {15, 51});
    EXPECT_EQ(Linear(Zeros(Shape{0, 3}, Dtype::kFloat32), Zeros(Shape{4, 3}, Dtype::kFloat32)).shape(), (Shape{0, 4}));
}

TEST(LinearTest, Gradients) {
    Array x = MakeArray<double>(Shape{2, 3}, {0.1, -0.5, 0.3, 0.8, 0.2, -0.4});
    Array w = MakeArray<double>(Shape{2, 3}, {0.7, -0.1, 0.2, -0.3, 0.6, 0.5});
    Array b = MakeArray<double>(Shape{2}, {0.1, -0.2});
    CheckGradient([&](const Array& v) { return Linear(v, w, b); }, x);
    CheckGradient([&](const Array& v) { return Linear(x, v, b); }, w);
    CheckGradient([&](const Array& v) { return Linear(x, w, v); }, b);
    // Linear in each argument, but second derivatives mix them: square to make them non-zero.
    CheckDoubleGradient([&](const Array& v) { return Square(Linear(v, w, b)); }, x);
    CheckDoubleGradient([&](const Array& v) { return Square(Linear(x, v, b)); }, w);
}

TEST(LinearTest, Errors) {
    Array x = Zeros(Shape{2, 3}, Dtype::kFloat32);
    Array w = Zeros(Shape{4, 3}, Dtype::kFloat32);
    ExpectThrowWith<DimensionError>([&] { Linear(x, w, std::nullopt, 0); },
                                    "linear: n_batch_axes must be at least 1, got 0");
    ExpectThrowWith<DimensionError>([&] { Linear(x, Zeros(Shape{4, 5}, Dtype::kFloat32)); },
                                    "linear: x of shape (2, 3) has 3 features per sample (n_batch_axes=1) but W of "
                                    "shape (4, 5) takes 5");
    ExpectThrowWith<DimensionError>([&] { Linear(x, w, Zeros(Shape{3}, Dtype::kFloat32)); },
                                    "linear: b must have shape (4,) to match W of shape (4, 3), got (3,)");
}

TEST(LinearTest, IntegerBoolAndMixedDtypes) {
    Array w = MakeArray<int32_t>(Shape{2, 3}, {1, 1, 1, 2, 0, -1});
    Array y = Linear(MakeArray<int32_t>(Shape{1, 3}, {1, 2, 3}), w, MakeArray<int32_t>(Shape{2}, {10, 0}));
    EXPECT_EQ(y.dtype(), Dtype::kInt32);
    EXPECT_EQ(ToVector<int32_t>(y), (std::vector<int32_t>{16, -1}));
    // int8 wraps: 3 * 100 = 300 -> 44.
    Array y8 = Linear(MakeArray<int8_t>(Shape{1, 3}, {100, 100, 100}), Ones(Shape{1, 3}, Dtype::kInt8));
    EXPECT_EQ(y8.dtype(), Dtype::kInt8);
    EXPECT_EQ(ToVector<int32_t>(y8), (std::vector<int32_t>{44}));
    Array yb = Linear(MakeArray<bool>(Shape{2, 2}, {true, false, false, false}),
                      MakeArray<bool>(Shape{1, 2}, {true, true}));
    EXPECT_EQ(yb.dtype(), Dtype::kBool);
    EXPECT_EQ(ToVector<int32_t>(yb), (std::vector<int32_t>{1, 0}));
    Array yf = Linear(MakeArray<int8_t>(Shape{1, 3}, {1, 2, 3}), MakeArray<float>(Shape{1, 3}, {0.5, 0.25, 1}));
    EXPECT_EQ(yf.dtype(), Dtype::kFloat32);
    ExpectAllClose(yf, {4});
}

}  // namespace
}  // namespace chainerx
