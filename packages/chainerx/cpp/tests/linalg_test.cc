#include "chainerx/routines/linalg.h"

#include <gtest/gtest.h>

#include "testing.h"

namespace chainerx {
namespace {

using testing::CheckGradient;
using testing::ExpectAllClose;
using testing::MakeArray;

Array Iota(const Shape& shape) { return Reshape(AsType(Arange(0, shape.GetTotalSize()), Dtype::kFloat64), shape); }

// Direct triple loop as the reference.
std::vector<double> NaiveMatmul(const std::vector<double>& a, const std::vector<double>& b, int m, int k, int n) {
    std::vector<double> c(m * n, 0.0);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            for (int p = 0; p < k; ++p) c[i * n + j] += a[i * k + p] * b[p * n + j];
    return c;
}

TEST(LinalgTest, DotMatchesNaiveOnOddSizes) {
    for (auto [m, k, n] : std::vector<std::tuple<int, int, int>>{{1, 1, 1}, {5, 7, 3}, {9, 130, 600}, {4, 0, 2}, {1, 7, 5}, {5, 7, 1}, {6, 1, 4}}) {
        Array a = RandomUniform(-1, 1, Shape{m, k});
        Array b = RandomUniform(-1, 1, Shape{k, n});
        ExpectAllClose(Dot(a, b), NaiveMatmul(testing::ToVector<double>(a), testing::ToVector<double>(b), m, k, n), 1e-10);
    }
}

TEST(LinalgTest, DotOfTransposedAndStridedViews) {
    // Vector and matrix shapes, with operands that are transposed or strided views.
    for (auto [m, k, n] : std::vector<std::tuple<int, int, int>>{{1, 7, 5}, {5, 7, 1}, {6, 1, 4}, {4, 6, 3}}) {
        Array at = Transpose(RandomUniform(-1, 1, Shape{k, m}));
        Array bt = Transpose(RandomUniform(-1, 1, Shape{n, k}));
        Array bs = At(RandomUniform(-1, 1, Shape{k, 2 * n}), {Slice{}, Slice{std::nullopt, std::nullopt, 2}});
        for (const Array& b : {bt, bs}) {
            ExpectAllClose(Dot(at, b), NaiveMatmul(testing::ToVector<double>(at), testing::ToVector<double>(b), m, k, n),
                           1e-10);
            Array a32 = AsType(at, Dtype::kFloat32);
            ExpectAllClose(Dot(a32, AsType(b, Dtype::kFloat32)),
                           NaiveMatmul(testing::ToVector<double>(a32), testing::ToVector<double>(b), m, k, n), 1e-5);
        }
    }
}

TEST(LinalgTest, DotShapesLikeNumPy) {
    EXPECT_EQ(Dot(Iota(Shape{3}), Iota(Shape{3})).shape(), Shape{});
    ExpectAllClose(Dot(Iota(Shape{3}), Iota(Shape{3})), {5});
    EXPECT_EQ(Dot(Iota(Shape{2, 3}), Iota(Shape{3})).shape(), (Shape{2}));
    EXPECT_EQ(Dot(Iota(Shape{2, 3, 4}), Iota(Shape{5, 4, 6})).shape(), (Shape{2, 3, 5, 6}));
    ExpectAllClose(Dot(Iota(Shape{2}), Scalar{2.0} * Ones(Shape{}, Dtype::kFloat64)), {0, 2});
    EXPECT_EQ(Dot(MakeArray<int32_t>(Shape{2}, {1, 2}), MakeArray<int32_t>(Shape{2}, {3, 4})).dtype(), Dtype::kInt32);
    EXPECT_EQ(Dot(Ones(Shape{2, 2}, Dtype::kFloat16), Ones(Shape{2, 2}, Dtype::kFloat16)).dtype(), Dtype::kFloat16);
    try {
        Dot(Iota(Shape{2, 3}), Iota(Shape{2, 3}));
        FAIL() << "expected DimensionError";
    } catch (const DimensionError& e) {
        EXPECT_STREQ(e.what(), "shapes (2, 3) and (2, 3) not aligned: 3 (dim 1) != 2 (dim 0)");
    }
}

TEST(LinalgTest, DotGradients) {
    Array a = RandomUniform(-1, 1, Shape{3, 4});
    Array b = RandomUniform(-1, 1, Shape{4, 2});
    CheckGradient([&](const Array& x) { return Dot(x, b); }, a);
    CheckGradient([&](const Array& y) { return Dot(a, y); }, b);
    CheckGradient([&](const Array& x) { return Dot(x, Iota(Shape{2, 4, 3})); }, a);
}

TEST(LinalgTest, Matmul) {
    Array a = Iota(Shape{2, 2, 3});
    Array b = Iota(Shape{3, 2});
    Array c = Matmul(a, b);
    EXPECT_EQ(c.shape(), (Shape{2, 2, 2}));
    ExpectAllClose(c, {10, 13, 28, 40, 46, 67, 64, 94});
    EXPECT_EQ(Matmul(Iota(Shape{3}), Iota(Shape{4, 3, 2})).shape(), (Shape{4, 2}));
    EXPECT_THROW(Matmul(Iota(Shape{2, 2, 3}), Iota(Shape{2, 2})), DimensionError);
    CheckGradient([&](const Array& x) { return Matmul(x, b); }, a);
}

}  // namespace
}  // namespace chainerx
