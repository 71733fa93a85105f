#include "chainerx/dtype.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "chainerx/float16.h"
#include "chainerx/scalar.h"

namespace chainerx {
namespace {

TEST(DtypeTest, NamesSizesAndKinds) {
    EXPECT_STREQ(GetDtypeName(Dtype::kFloat16), "float16");
    EXPECT_EQ(GetItemSize(Dtype::kFloat16), 2);
    EXPECT_EQ(GetItemSize(Dtype::kInt64), 8);
    EXPECT_EQ(GetItemSize(Dtype::kBool), 1);
    EXPECT_EQ(GetKind(Dtype::kUInt8), DtypeKind::kUInt);
    EXPECT_TRUE(IsFloating(Dtype::kFloat64));
    EXPECT_FALSE(IsFloating(Dtype::kInt32));
}

TEST(DtypeTest, ParsesNumPyNames) {
    EXPECT_EQ(GetDtype("float32"), Dtype::kFloat32);
    EXPECT_EQ(GetDtype("f8"), Dtype::kFloat64);
    EXPECT_EQ(GetDtype("bool_"), Dtype::kBool);
    EXPECT_EQ(GetDtype("int"), Dtype::kInt64);
    EXPECT_THROW(GetDtype("complex64"), DtypeError);
    try {
        GetDtype("uint16");
    } catch (const DtypeError& e) {
        EXPECT_NE(std::string{e.what()}.find("'uint16'"), std::string::npos);
    }
}

struct PromotionCase {
    Dtype a;
    Dtype b;
    Dtype expected;
};

class PromotionTest : public ::testing::TestWithParam<PromotionCase> {};

TEST_P(PromotionTest, FollowsNumPy) {
    const PromotionCase& c = GetParam();
    EXPECT_EQ(PromoteTypes(c.a, c.b), c.expected) << c.a << " + " << c.b;
    EXPECT_EQ(PromoteTypes(c.b, c.a), c.expected) << c.b << " + " << c.a;
}

// Expected values are NumPy's np.promote_types results.
INSTANTIATE_TEST_SUITE_P(NumPyTable, PromotionTest,
                         ::testing::Values(PromotionCase{Dtype::kBool, Dtype::kInt8, Dtype::kInt8},
                                           PromotionCase{Dtype::kBool, Dtype::kFloat16, Dtype::kFloat16},
                                           PromotionCase{Dtype::kUInt8, Dtype::kInt8, Dtype::kInt16},
                                           PromotionCase{Dtype::kUInt8, Dtype::kInt16, Dtype::kInt16},
                                           PromotionCase{Dtype::kUInt8, Dtype::kInt64, Dtype::kInt64},
                                           PromotionCase{Dtype::kInt8, Dtype::kInt32, Dtype::kInt32},
                                           PromotionCase{Dtype::kInt8, Dtype::kFloat16, Dtype::kFloat16},
                                           PromotionCase{Dtype::kUInt8, Dtype::kFloat16, Dtype::kFloat16},
                                           PromotionCase{Dtype::kInt16, Dtype::kFloat16, Dtype::kFloat32},
                                           PromotionCase{Dtype::kInt32, Dtype::kFloat16, Dtype::kFloat64},
                                           PromotionCase{Dtype::kInt16, Dtype::kFloat32, Dtype::kFloat32},
                                           PromotionCase{Dtype::kInt32, Dtype::kFloat32, Dtype::kFloat64},
                                           PromotionCase{Dtype::kInt64, Dtype::kFloat32, Dtype::kFloat64},
                                           PromotionCase{Dtype::kFloat16, Dtype::kFloat32, Dtype::kFloat32},
                                           PromotionCase{Dtype::kFloat32, Dtype::kFloat64, Dtype::kFloat64},
                                           PromotionCase{Dtype::kFloat32, Dtype::kFloat32, Dtype::kFloat32}));

TEST(ScalarTest, WeakScalarPromotion) {
    EXPECT_EQ(ResultTypeWithScalar(Dtype::kInt8, Scalar{1000}), Dtype::kInt8);
    EXPECT_EQ(ResultTypeWithScalar(Dtype::kInt32, Scalar{1.5}), Dtype::kFloat64);
    EXPECT_EQ(ResultTypeWithScalar(Dtype::kFloat16, Scalar{1.5}), Dtype::kFloat16);
    EXPECT_EQ(ResultTypeWithScalar(Dtype::kBool, Scalar{2}), Dtype::kInt64);
    EXPECT_EQ(ResultTypeWithScalar(Dtype::kUInt8, Scalar{true}), Dtype::kUInt8);
}

TEST(ScalarTest, ConvertsAndPrints) {
    EXPECT_EQ(Scalar{2.7}.As<int64_t>(), 2);
    EXPECT_TRUE(Scalar{3}.As<bool>());
    EXPECT_FLOAT_EQ(static_cast<float>(Scalar{0.5}.As<Float16>()), 0.5f);
    EXPECT_EQ(Scalar{true}.ToString(), "True");
    EXPECT_EQ((-Scalar{3}).As<int64_t>(), -3);
    EXPECT_THROW(-Scalar{true}, DtypeError);
}

TEST(Float16Test, RoundTripsAndRounds) {
    for (float v : {0.0f, 1.0f, -2.5f, 65504.0f, 0.000061035156f, 5.9604645e-08f}) {
        EXPECT_EQ(static_cast<float>(Float16{v}), v) << v;
    }
    EXPECT_EQ(Float16{1.0f}.bits(), 0x3c00);
    EXPECT_EQ(Float16{-2.0f}.bits(), 0xc000);
    // 1 + 2^-11 lies halfway between 1 and the next half; ties go to even (1.0).
    EXPECT_EQ(static_cast<float>(Float16{1.0f + std::ldexp(1.0f, -11)}), 1.0f);
    EXPECT_TRUE(std::isinf(static_cast<float>(Float16{70000.0f})));
    EXPECT_TRUE(std::isnan(static_cast<float>(Float16{std::numeric_limits<float>::quiet_NaN()})));
    EXPECT_EQ(static_cast<float>(Float16::FromBits(0x0001)), std::ldexp(1.0f, -24));
}

}  // namespace
}  // namespace chainerx
