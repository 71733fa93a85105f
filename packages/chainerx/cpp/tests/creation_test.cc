#include "chainerx/routines/creation.h"

#include <gtest/gtest.h>

#include "testing.h"

namespace chainerx {
namespace {

using testing::ExpectAllClose;
using testing::MakeArray;
using testing::ToVector;

TEST(CreationTest, FullZerosOnes) {
    ExpectAllClose(Full(Shape{2}, 2.5, Dtype::kFloat32), {2.5, 2.5});
    EXPECT_EQ(Full(Shape{1}, Scalar{3}).dtype(), Dtype::kInt64);
    EXPECT_EQ(Full(Shape{1}, Scalar{true}).dtype(), Dtype::kBool);
    ExpectAllClose(Zeros(Shape{2, 2}, Dtype::kInt8), {0, 0, 0, 0});
    ExpectAllClose(Ones(Shape{3}, Dtype::kFloat16), {1, 1, 1});
    EXPECT_EQ(Empty(Shape{0, 4}, Dtype::kFloat64).GetTotalSize(), 0);
    EXPECT_THROW(Empty(Shape{-1}, Dtype::kFloat32), DimensionError);
}

TEST(CreationTest, LikeFunctionsKeepShapeDtypeAndDevice) {
    Array a = Zeros(Shape{2, 3}, Dtype::kInt16, GetDevice("native:1"));
    Array b = OnesLike(a);
    EXPECT_EQ(b.shape(), a.shape());
    EXPECT_EQ(b.dtype(), Dtype::kInt16);
    EXPECT_EQ(&b.device(), &a.device());
    EXPECT_EQ(FullLike(a, 7, GetDevice("native:0")).device().name(), "native:0");
    ExpectAllClose(ZerosLike(a), {0, 0, 0, 0, 0, 0});
}

TEST(CreationTest, Arange) {
    Array a = Arange(0, 5);
    EXPECT_EQ(a.dtype(), Dtype::kInt64);
    ExpectAllClose(a, {0, 1, 2, 3, 4});
    Array f = Arange(1.0, 2.0, 0.25);
    EXPECT_EQ(f.dtype(), Dtype::kFloat64);
    ExpectAllClose(f, {1, 1.25, 1.5, 1.75});
    ExpectAllClose(Arange(5, 0, -2), {5, 3, 1});
    EXPECT_EQ(Arange(3, 1).GetTotalSize(), 0);
    EXPECT_THROW(Arange(0, 1, 0), ChainerxError);
}

TEST(CreationTest, LinspaceEyeIdentityTri) {
    ExpectAllClose(Linspace(0, 1, 5), {0, 0.25, 0.5, 0.75, 1});
    ExpectAllClose(Linspace(0, 1, 4, false), {0, 0.25, 0.5, 0.75});
    ExpectAllClose(Eye(2, 3, 1), {0, 1, 0, 0, 0, 1});
    ExpectAllClose(Identity(2, Dtype::kInt32), {1, 0, 0, 1});
    ExpectAllClose(Tri(3, 2, 0), {1, 0, 1, 1, 1, 1});
}

TEST(CreationTest, DiagTrilTriu) {
    Array m = MakeArray<double>(Shape{3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    ExpectAllClose(Diag(m), {1, 5, 9});
    ExpectAllClose(Diag(m, 1), {2, 6});
    ExpectAllClose(Diag(m, -2), {7});
    ExpectAllClose(Diag(MakeArray<double>(Shape{2}, {1, 2}), -1), {0, 0, 0, 1, 0, 0, 0, 2, 0});
    ExpectAllClose(Diagflat(MakeArray<double>(Shape{1, 2}, {3, 4})), {3, 0, 0, 4});
    ExpectAllClose(Tril(m), {1, 0, 0, 4, 5, 0, 7, 8, 9});
    ExpectAllClose(Triu(m, 1), {0, 2, 3, 0, 0, 6, 0, 0, 0});
    testing::CheckGradient([](const Array& x) { return Diag(x, 1); }, m);
    testing::CheckGradient([](const Array& x) { return Tril(x, -1); }, m);
}

TEST(CreationTest, Meshgrid) {
    std::vector<Array> g = Meshgrid({Arange(0, 3), Arange(10, 12)});
    EXPECT_EQ(g[0].shape(), (Shape{2, 3}));
    ExpectAllClose(g[0], {0, 1, 2, 0, 1, 2});
    ExpectAllClose(g[1], {10, 10, 10, 11, 11, 11});
    std::vector<Array> ij = Meshgrid({Arange(0, 3), Arange(10, 12)}, false);
    EXPECT_EQ(ij[0].shape(), (Shape{3, 2}));
}

TEST(CreationTest, CopyAndAsTypeAreDifferentiable) {
    Array x = MakeArray<float>(Shape{2}, {1, 2}).RequireGrad();
    Array y = Sum(Multiply(AsType(Copy(x), Dtype::kFloat64), Scalar{2.0}));
    y.Backward();
    EXPECT_EQ(x.GetGrad()->dtype(), Dtype::kFloat32);
    ExpectAllClose(*x.GetGrad(), {2, 2});
}

}  // namespace
}  // namespace chainerx
