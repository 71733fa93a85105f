#include "chainerx/routines/math.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "testing.h"

namespace chainerx {
namespace {

using testing::CheckGradient;
using testing::ExpectAllClose;
using testing::MakeArray;
using testing::ToVector;

TEST(MathTest, ArithmeticBroadcastsAndPromotes) {
    Array a = MakeArray<int32_t>(Shape{2, 1}, {1, 2});
    Array b = MakeArray<float>(Shape{3}, {0.5, 1, 2});
    Array c = Add(a, b);
    EXPECT_EQ(c.dtype(), Dtype::kFloat64);  // int32 + float32 -> float64, as NumPy
    ExpectAllClose(c, {1.5, 2, 3, 2.5, 3, 4});
    ExpectAllClose(Subtract(b, Scalar{1}), {-0.5, 0, 1});
    EXPECT_EQ(Multiply(a, Scalar{2}).dtype(), Dtype::kInt32);
    EXPECT_EQ(Multiply(a, Scalar{2.0}).dtype(), Dtype::kFloat64);
    ExpectAllClose(Divide(Scalar{1}, b), {2, 1, 0.5});
    EXPECT_EQ(Divide(a, a).dtype(), Dtype::kFloat64);
    EXPECT_THROW(Add(a, Zeros(Shape{3, 1}, Dtype::kInt32)), DimensionError);
    EXPECT_THROW(Subtract(Zeros(Shape{1}, Dtype::kBool), Zeros(Shape{1}, Dtype::kBool)), DtypeError);
}

TEST(MathTest, IntegerDivisionFollowsPython) {
    Array a = MakeArray<int64_t>(Shape{4}, {7, -7, 7, 5});
    Array b = MakeArray<int64_t>(Shape{4}, {2, 2, -2, 0});
    EXPECT_EQ(ToVector<int64_t>(FloorDivide(a, b)), (std::vector<int64_t>{3, -4, -4, 0}));
    EXPECT_EQ(ToVector<int64_t>(Remainder(a, b)), (std::vector<int64_t>{1, 1, -1, 0}));
    ExpectAllClose(Remainder(MakeArray<double>(Shape{2}, {-7.5, 7.5}), Scalar{2.0}), {0.5, 1.5});
    EXPECT_EQ(ToVector<int64_t>(Power(a, Scalar{2})), (std::vector<int64_t>{49, 49, 49, 25}));
}

TEST(MathTest, FloatFloorDivisionGoesWithTheRemainder) {
    // Not floor(x / y): in float32 100.8f / 1.2f rounds up to 84, while the quotient that goes
    // with 100.8f % 1.2f is 83 (as NumPy). Infinite divisors give 0 or -1, zero divisors +-inf.
    const float inf = std::numeric_limits<float>::infinity();
    Array x = MakeArray<float>(Shape{6}, {100.8f, 2.4f, -5.0f, 5.0f, 3.0f, -3.0f});
    Array y = MakeArray<float>(Shape{6}, {1.2f, 1.2f, inf, inf, 0.0f, 0.0f});
    EXPECT_EQ(ToVector<float>(FloorDivide(x, y)), (std::vector<float>{83.0f, 2.0f, -1.0f, 0.0f, inf, -inf}));
    internal::FloorDivideInplace(x, y);
    EXPECT_EQ(ToVector<float>(x), (std::vector<float>{83.0f, 2.0f, -1.0f, 0.0f, inf, -inf}));
}

TEST(MathTest, UnaryFunctionsMatchStdMath) {
    std::vector<double> v{0.1, 0.5, 0.9};
    Array x = MakeArray<double>(Shape{3}, v);
    struct Case {
        std::function<Array(const Array&)> routine;
        double (*reference)(double);
    };
    std::vector<Case> cases{{Exp, std::exp},       {Log, std::log},       {Sqrt, std::sqrt},   {Sin, std::sin},
                            {Cos, std::cos},       {Tan, std::tan},       {Arcsin, std::asin}, {Arccos, std::acos},
                            {Arctan, std::atan},   {Sinh, std::sinh},     {Cosh, std::cosh},   {Tanh, std::tanh},
                            {Arcsinh, std::asinh}, {Arctanh, std::atanh}, {Log10, std::log10}, {Log2, std::log2},
                            {Log1p, std::log1p},   {Expm1, std::expm1}};
    for (const Case& c : cases) {
        std::vector<double> expected;
        for (double e : v) expected.push_back(c.reference(e));
        ExpectAllClose(c.routine(x), expected);
        CheckGradient(c.routine, x);
    }
    ExpectAllClose(Arccosh(Add(x, Scalar{1.0})), {std::acosh(1.1), std::acosh(1.5), std::acosh(1.9)});
    CheckGradient([](const Array& a) { return Arccosh(Add(a, Scalar{1.0})); }, x);
}

TEST(MathTest, UnaryOfIntegersGivesNumPysFloat) {
    EXPECT_EQ(Exp(Zeros(Shape{1}, Dtype::kInt8)).dtype(), Dtype::kFloat16);
    EXPECT_EQ(Exp(Zeros(Shape{1}, Dtype::kInt16)).dtype(), Dtype::kFloat32);
    EXPECT_EQ(Sqrt(Zeros(Shape{1}, Dtype::kInt32)).dtype(), Dtype::kFloat64);
    EXPECT_EQ(Square(Zeros(Shape{1}, Dtype::kInt32)).dtype(), Dtype::kInt32);
    EXPECT_EQ(Ceil(Zeros(Shape{1}, Dtype::kInt32)).dtype(), Dtype::kInt32);
}

TEST(MathTest, SignAbsCeilFloorNegative) {
    Array x = MakeArray<double>(Shape{4}, {-1.5, 0, 2.5, -0.2});
    ExpectAllClose(Sign(x), {-1, 0, 1, -1});
    ExpectAllClose(Absolute(x), {1.5, 0, 2.5, 0.2});
    ExpectAllClose(Ceil(x), {-1, 0, 3, 0});
    ExpectAllClose(Floor(x), {-2, 0, 2, -1});
    ExpectAllClose(Negative(x), {1.5, 0, -2.5, 0.2});
    ExpectAllClose(Reciprocal(MakeArray<double>(Shape{2}, {2, -4})), {0.5, -0.25});
    EXPECT_EQ(ToVector<int32_t>(Absolute(MakeArray<int32_t>(Shape{2}, {-3, 3}))), (std::vector<int32_t>{3, 3}));
}

TEST(MathTest, ActivationsAndClip) {
    Array x = MakeArray<double>(Shape{3}, {-2, 0.5, 3});
    ExpectAllClose(Relu(x), {0, 0.5, 3});
    ExpectAllClose(Sigmoid(x), {1 / (1 + std::exp(2.0)), 1 / (1 + std::exp(-0.5)), 1 / (1 + std::exp(-3.0))});
    ExpectAllClose(Clip(x, Scalar{-1.0}, Scalar{1.0}), {-1, 0.5, 1});
    ExpectAllClose(Clip(x, std::nullopt, Scalar{0.0}), {-2, 0, 0});
    EXPECT_THROW(Clip(x, std::nullopt, std::nullopt), ChainerxError);
    CheckGradient(Relu, x);
    CheckGradient(Sigmoid, x);
    CheckGradient([](const Array& a) { return Clip(a, Scalar{-1.0}, Scalar{1.0}); }, x);
}

TEST(MathTest, BinaryGradients) {
    Array a = MakeArray<double>(Shape{2, 3}, {0.5, 1, 1.5, 2, 2.5, 3});
    Array b = MakeArray<double>(Shape{3}, {1.2, 0.7, 2.2});
    for (auto f : std::vector<std::function<Array(const Array&, const Array&)>>{
                 [](const Array& p, const Array& q) { return Add(p, q); },
                 [](const Array& p, const Array& q) { return Subtract(p, q); },
                 [](const Array& p, const Array& q) { return Multiply(p, q); },
                 [](const Array& p, const Array& q) { return Divide(p, q); },
                 [](const Array& p, const Array& q) { return Power(p, q); },
                 [](const Array& p, const Array& q) { return Maximum(p, q); },
                 [](const Array& p, const Array& q) { return Minimum(p, q); },
                 [](const Array& p, const Array& q) { return Arctan2(p, q); }}) {
        CheckGradient([&](const Array& x) { return f(x, b); }, a);
        CheckGradient([&](const Array& y) { return f(a, y); }, b);
    }
}

TEST(MathTest, BitwiseOps) {
    Array a = MakeArray<int32_t>(Shape{3}, {12, 10, 1});
    Array b = MakeArray<int32_t>(Shape{3}, {10, 6, 3});
    EXPECT_EQ(ToVector<int32_t>(BitwiseAnd(a, b)), (std::vector<int32_t>{8, 2, 1}));
    EXPECT_EQ(ToVector<int32_t>(BitwiseOr(a, b)), (std::vector<int32_t>{14, 14, 3}));
    EXPECT_EQ(ToVector<int32_t>(BitwiseXor(a, b)), (std::vector<int32_t>{6, 12, 2}));
    EXPECT_EQ(ToVector<int32_t>(LeftShift(a, Scalar{1})), (std::vector<int32_t>{24, 20, 2}));
    EXPECT_EQ(ToVector<int32_t>(RightShift(a, Scalar{2})), (std::vector<int32_t>{3, 2, 0}));
    EXPECT_EQ(ToVector<int32_t>(Invert(a)), (std::vector<int32_t>{-13, -11, -2}));
    try {
        BitwiseAnd(MakeArray<double>(Shape{1}, {1}), MakeArray<double>(Shape{1}, {1}));
        FAIL() << "expected DtypeError";
    } catch (const DtypeError& e) {
        EXPECT_STREQ(e.what(), "this binary function is not supported for dtype float64");
    }
}

TEST(MathTest, Float16Arithmetic) {
    Array a = MakeArray<float>(Shape{2}, {1.5, 2}, Dtype::kFloat16);
    Array c = Multiply(a, a);
    EXPECT_EQ(c.dtype(), Dtype::kFloat16);
    ExpectAllClose(c, {2.25, 4});
    ExpectAllClose(Exp(a), {std::exp(1.5), std::exp(2.0)}, 1e-3);
}

TEST(MathTest, NonContiguousAndZeroSize) {
    Array a = Transpose(MakeArray<double>(Shape{2, 3}, {1, 2, 3, 4, 5, 6}));
    ExpectAllClose(Add(a, a), {2, 8, 4, 10, 6, 12});
    Array e = Zeros(Shape{0, 3}, Dtype::kFloat32);
    EXPECT_EQ(Exp(e).shape(), (Shape{0, 3}));
    EXPECT_EQ(Add(e, Ones(Shape{3}, Dtype::kFloat32)).shape(), (Shape{0, 3}));
}

}  // namespace
}  // namespace chainerx
