#include "chainerx/routines/linalg.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "chainerx/build_info.h"
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
    for (auto [m, k, n] : std::vector<std::tuple<int, int, int>>{
                 {1, 1, 1}, {5, 7, 3}, {9, 130, 600}, {4, 0, 2}, {1, 7, 5}, {5, 7, 1}, {6, 1, 4}}) {
        Array a = RandomUniform(-1, 1, Shape{m, k});
        Array b = RandomUniform(-1, 1, Shape{k, n});
        ExpectAllClose(Dot(a, b), NaiveMatmul(testing::ToVector<double>(a), testing::ToVector<double>(b), m, k, n),
                       1e-10);
    }
}

TEST(LinalgTest, DotOfTransposedAndStridedViews) {
    // Vector and matrix shapes, with operands that are transposed or strided views.
    for (auto [m, k, n] : std::vector<std::tuple<int, int, int>>{{1, 7, 5}, {5, 7, 1}, {6, 1, 4}, {4, 6, 3}}) {
        Array at = Transpose(RandomUniform(-1, 1, Shape{k, m}));
        Array bt = Transpose(RandomUniform(-1, 1, Shape{n, k}));
        Array bs = At(RandomUniform(-1, 1, Shape{k, 2 * n}), {Slice{}, Slice{std::nullopt, std::nullopt, 2}});
        for (const Array& b : {bt, bs}) {
            ExpectAllClose(Dot(at, b),
                           NaiveMatmul(testing::ToVector<double>(at), testing::ToVector<double>(b), m, k, n), 1e-10);
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

// ---- chainerx.linalg ----

class LapackTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (GetBuildInfo().blas != "openblas") GTEST_SKIP() << "built without LAPACK (scipy-openblas32)";
    }
};

Array Matrix(int64_t rows, int64_t cols, const std::vector<double>& values, Dtype dtype = Dtype::kFloat64) {
    return MakeArray<double>(Shape{rows, cols}, values, dtype);
}

// The message of the E that f throws ("" when it throws none).
template <typename E, typename F>
std::string ErrorMessage(F&& f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    return "";
}

void ExpectOrthonormalColumns(const Array& q, double tol) {
    int64_t m = q.shape()[0];
    int64_t k = q.shape()[1];
    std::vector<double> v = testing::ToVector<double>(q);
    for (int64_t i = 0; i < k; ++i) {
        for (int64_t j = 0; j < k; ++j) {
            double dot = 0;
            for (int64_t p = 0; p < m; ++p) dot += v[p * k + i] * v[p * k + j];
            EXPECT_NEAR(dot, i == j ? 1.0 : 0.0, tol) << "columns " << i << " and " << j;
        }
    }
}

std::vector<double> NaiveProduct(const Array& a, const Array& b) {
    return NaiveMatmul(testing::ToVector<double>(a), testing::ToVector<double>(b), a.shape()[0], a.shape()[1],
                       b.shape()[1]);
}

// x x^T + n I for a random n x n x: symmetric positive definite and well conditioned.
Array RandomSpd(int64_t n) {
    Array x = RandomUniform(-1, 1, Shape{n, n});
    return Dot(x, Transpose(x)) + Identity(n) * Scalar{static_cast<double>(n)};
}

TEST_F(LapackTest, CholeskyOfAKnownMatrix) {
    for (Dtype dtype : {Dtype::kFloat32, Dtype::kFloat64}) {
        Array a = Matrix(3, 3, {4, 12, -16, 12, 37, -43, -16, -43, 98}, dtype);
        Array l = Cholesky(a);
        EXPECT_EQ(l.dtype(), dtype);
        ExpectAllClose(l, {2, 0, 0, 6, 1, 0, -8, 5, 3}, 1e-6);
        ExpectAllClose(Cholesky(Transpose(a)), {2, 0, 0, 6, 1, 0, -8, 5, 3}, 1e-6);
    }
    // Only the lower triangle is read.
    ExpectAllClose(Cholesky(Matrix(2, 2, {4, 99, 2, 5})), {2, 0, 1, 2});
    EXPECT_EQ(Cholesky(Zeros(Shape{0, 0}, Dtype::kFloat64)).shape(), (Shape{0, 0}));
    EXPECT_EQ(ErrorMessage<ChainerxError>([] { Cholesky(Matrix(2, 2, {1, 2, 2, 1})); }),
              "cholesky: the matrix is not positive definite (its leading minor of order 2 is not positive)");
}

TEST_F(LapackTest, QrModes) {
    for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{5, 3}, {3, 5}, {4, 4}, {1, 1}}) {
        int64_t k = std::min(m, n);
        Array a = RandomUniform(-1, 1, Shape{m, n});
        std::vector<Array> qr = Qr(a);
        ASSERT_EQ(qr.size(), 2u);
        EXPECT_EQ(qr[0].shape(), (Shape{m, k}));
        EXPECT_EQ(qr[1].shape(), (Shape{k, n}));
        ExpectOrthonormalColumns(qr[0], 1e-12);
        ExpectAllClose(a, NaiveProduct(qr[0], qr[1]), 1e-12);
        ExpectAllClose(Tril(qr[1], -1), std::vector<double>(k * n, 0.0), 0);
        std::vector<Array> complete = Qr(a, QrMode::kComplete);
        EXPECT_EQ(complete[0].shape(), (Shape{m, m}));
        EXPECT_EQ(complete[1].shape(), (Shape{m, n}));
        ExpectOrthonormalColumns(complete[0], 1e-12);
        ExpectAllClose(a, NaiveProduct(complete[0], complete[1]), 1e-12);
        std::vector<Array> r = Qr(a, QrMode::kR);
        ASSERT_EQ(r.size(), 1u);
        ExpectAllClose(r[0], testing::ToVector<double>(qr[1]), 1e-14);
        std::vector<Array> raw = Qr(a, QrMode::kRaw);
        EXPECT_EQ(raw[0].shape(), (Shape{n, m}));
        EXPECT_EQ(raw[1].shape(), (Shape{k}));
        // The upper triangle of h (transposed) is r.
        ExpectAllClose(At(Triu(Transpose(raw[0])), {Slice{0, k}, Slice{}}), testing::ToVector<double>(qr[1]), 1e-14);
    }
}

TEST_F(LapackTest, CompleteQrOfAnEmptyTallMatrixIsTheIdentity) {
    // q's columns past a's are workspace that LAPACKE checks for NaN: they must be initialized.
    for (int i = 0; i < 20; ++i) {
        std::vector<Array> complete = Qr(Zeros(Shape{3, 0}, Dtype::kFloat64), QrMode::kComplete);
        ExpectAllClose(complete[0], {1, 0, 0, 0, 1, 0, 0, 0, 1}, 0);
        EXPECT_EQ(complete[1].shape(), (Shape{3, 0}));
    }
}

TEST_F(LapackTest, SvdOfAKnownMatrix) {
    Array a = Matrix(3, 2, {3, 0, 0, -2, 0, 0});
    std::vector<Array> full = Svd(a);
    ASSERT_EQ(full.size(), 3u);
    EXPECT_EQ(full[0].shape(), (Shape{3, 3}));
    EXPECT_EQ(full[2].shape(), (Shape{2, 2}));
    ExpectAllClose(full[1], {3, 2});
    ExpectOrthonormalColumns(full[0], 1e-14);
    std::vector<Array> reduced = Svd(AsType(a, Dtype::kFloat32), false);
    EXPECT_EQ(reduced[0].shape(), (Shape{3, 2}));
    EXPECT_EQ(reduced[1].dtype(), Dtype::kFloat32);
    ExpectAllClose(a, NaiveProduct(reduced[0] * reduced[1], reduced[2]), 1e-6);
    std::vector<Array> values = Svd(Transpose(a), true, false);
    ASSERT_EQ(values.size(), 1u);
    ExpectAllClose(values[0], {3, 2});
    // NumPy's factors of an empty matrix: identities where they are square.
    std::vector<Array> empty = Svd(Zeros(Shape{3, 0}, Dtype::kFloat64));
    ExpectAllClose(empty[0], testing::ToVector<double>(Identity(3)));
    EXPECT_EQ(empty[1].shape(), (Shape{0}));
    EXPECT_EQ(empty[2].shape(), (Shape{0, 0}));
}

TEST_F(LapackTest, EighReadsOneTriangle) {
    Array a = Matrix(2, 2, {2, 100, 1, 2});  // the lower triangle of [[2, 1], [1, 2]]
    auto [w, v] = Eigh(a, 'L');
    ExpectAllClose(w, {1, 3});
    ExpectOrthonormalColumns(v, 1e-14);
    // a v = v diag(w) for the symmetric matrix read.
    ExpectAllClose(Dot(Matrix(2, 2, {2, 1, 1, 2}), v), testing::ToVector<double>(v * w), 1e-14);
    ExpectAllClose(std::get<0>(Eigh(Transpose(a), 'U')), {1, 3});
    ExpectAllClose(Eigvalsh(AsType(a, Dtype::kFloat32)), {1, 3}, 1e-6);
    EXPECT_EQ(ErrorMessage<std::invalid_argument>([&a] { Eigh(a, 'X'); }), "UPLO argument must be 'L' or 'U'");
    EXPECT_EQ(ErrorMessage<std::invalid_argument>([&a] { Eigvalsh(a, 'l'); }), "UPLO argument must be 'L' or 'U'");
}

TEST_F(LapackTest, SolveAndInv) {
    for (Dtype dtype : {Dtype::kFloat32, Dtype::kFloat64}) {
        Array a = Matrix(2, 2, {3, 1, 1, 2}, dtype);
        ExpectAllClose(Solve(a, MakeArray<double>(Shape{2}, {9, 8}, dtype)), {2, 3}, 1e-6);
        Array x = Solve(Transpose(a), Matrix(2, 2, {9, 1, 8, 2}, dtype));
        EXPECT_EQ(x.dtype(), dtype);
        ExpectAllClose(x, {2, 0, 3, 1}, 1e-6);
        ExpectAllClose(Inv(Matrix(2, 2, {4, 7, 2, 6}, dtype)), {0.6, -0.7, -0.2, 0.4}, 1e-6);
    }
    EXPECT_EQ(Solve(Matrix(2, 2, {3, 1, 1, 2}, Dtype::kFloat32), MakeArray<double>(Shape{2}, {9, 8})).dtype(),
              Dtype::kFloat64);
    EXPECT_EQ(Inv(Zeros(Shape{0, 0}, Dtype::kFloat64)).shape(), (Shape{0, 0}));
    EXPECT_EQ(ErrorMessage<ChainerxError>([] { Inv(Matrix(2, 2, {1, 2, 2, 4})); }),
              "inv: the matrix is singular (U[1, 1] of its LU factorization is zero)");
    EXPECT_EQ(ErrorMessage<ChainerxError>([] { Solve(Matrix(2, 2, {0, 0, 0, 1}), Ones(Shape{2}, Dtype::kFloat64)); }),
              "solve: the matrix is singular (U[0, 0] of its LU factorization is zero)");
}

TEST_F(LapackTest, Pinv) {
    ExpectAllClose(Pinv(Matrix(3, 2, {1, 0, 0, 2, 0, 0})), {1, 0, 0, 0, 0.5, 0});
    // Rank one: u s v^T has the pseudo-inverse v u^T / s = a^T / s^2.
    ExpectAllClose(Pinv(Matrix(2, 2, {1, 2, 2, 4}), 1e-10), {0.04, 0.08, 0.08, 0.16}, 1e-12);
    Array a = RandomUniform(-1, 1, Shape{4, 3});
    Array p = Pinv(a);
    EXPECT_EQ(p.shape(), (Shape{3, 4}));
    ExpectAllClose(a, NaiveProduct(Dot(a, p), a), 1e-12);
    EXPECT_EQ(Pinv(Zeros(Shape{0, 3}, Dtype::kFloat32)).shape(), (Shape{3, 0}));
}

TEST_F(LapackTest, NanInput) {
    Array a = Full(Shape{2, 2}, std::nan(""), Dtype::kFloat64);
    EXPECT_EQ(ErrorMessage<ChainerxError>([&a] { Svd(a); }), "svd: the input contains NaN");
}

TEST_F(LapackTest, Gradients) {
    Array spd = RandomSpd(3);
    CheckGradient([](const Array& x) { return Cholesky(x); }, spd);
    CheckGradient([](const Array& x) { return Inv(x); }, spd);
    CheckGradient([](const Array& x) { return Pinv(x); }, RandomUniform(-1, 1, Shape{4, 3}));
    Array b = RandomUniform(-1, 1, Shape{3, 2});
    CheckGradient([&b](const Array& x) { return Solve(x, b); }, spd);
    CheckGradient([&spd](const Array& y) { return Solve(spd, y); }, b);
    for (const Shape& shape : {Shape{4, 3}, Shape{3, 4}}) {
        Array a = RandomUniform(-1, 1, shape) + Eye(shape[0], shape[1]);
        CheckGradient(
                [](const Array& x) {
                    std::vector<Array> qr = Qr(x);
                    return Concatenate({Ravel(qr[0]), Ravel(qr[1])}, 0);
                },
                a);
        // u diag(w) vh does not depend on the signs of the singular vectors.
        CheckGradient(
                [](const Array& x) {
                    std::vector<Array> usv = Svd(x, false);
                    return Concatenate({usv[1], Ravel(Dot(usv[0] * Arange(1, 4, 1, Dtype::kFloat64), usv[2]))}, 0);
                },
                a);
    }
    CheckGradient(
            [](const Array& x) {
                auto [w, v] = Eigh(x, 'U');
                return Concatenate({w, Ravel(Dot(v * Arange(1, 4, 1, Dtype::kFloat64), Transpose(v)))}, 0);
            },
            spd);
}

TEST_F(LapackTest, GradientsThatAreNotImplemented) {
    Array x = RandomUniform(-1, 1, Shape{3, 2}).RequireGrad();
    EXPECT_EQ(ErrorMessage<NotImplementedError>([&x] { Backward({Sum(Qr(x, QrMode::kRaw)[0])}); }),
              "qr: the gradient of mode='raw' is not implemented");
    EXPECT_NE(ErrorMessage<NotImplementedError>([&x] {
                  Backward({Sum(Svd(x)[2])});
              }).find("svd: the gradient of full_matrices=True is not implemented for non-square matrices"),
              std::string::npos);
}

TEST(LinalgTest, ArgumentErrors) {
    EXPECT_EQ(ErrorMessage<DtypeError>([] { Inv(Eye(2, std::nullopt, 0, Dtype::kFloat16)); }),
              "inv: float32 or float64 is required, but got float16");
    EXPECT_EQ(ErrorMessage<DtypeError>([] { Qr(Eye(2, std::nullopt, 0, Dtype::kInt32)); }),
              "qr: float32 or float64 is required, but got int32");
    EXPECT_EQ(ErrorMessage<DimensionError>([] { Svd(Ones(Shape{2, 2, 2}, Dtype::kFloat64)); }),
              "svd: a 2-D array is required, but got shape (2, 2, 2)");
    EXPECT_EQ(ErrorMessage<DimensionError>([] { Cholesky(Ones(Shape{2, 3}, Dtype::kFloat64)); }),
              "cholesky: a square matrix is required, but got shape (2, 3)");
    EXPECT_EQ(ErrorMessage<DimensionError>([] { Solve(Identity(3), Ones(Shape{2}, Dtype::kFloat64)); }),
              "solve: b must have shape (3,) or (3, k) for a of shape (3, 3), but got shape (2,)");
    EXPECT_EQ(ErrorMessage<DtypeError>([] { Solve(Identity(2), Ones(Shape{2}, Dtype::kInt64)); }),
              "solve: float32 or float64 is required, but got int64");
}

TEST(LinalgTest, WithoutLapackTheRoutinesSayWhatTheyNeed) {
    if (GetBuildInfo().blas == "openblas") GTEST_SKIP() << "built with LAPACK";
    EXPECT_NE(ErrorMessage<NotImplementedError>([] { Inv(Identity(2)); }).find("chainerx.linalg needs LAPACK"),
              std::string::npos);
}

}  // namespace
}  // namespace chainerx
