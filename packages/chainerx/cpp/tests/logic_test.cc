#include "chainerx/routines/logic.h"

#include <gtest/gtest.h>

#include <limits>

#include "testing.h"

namespace chainerx {
namespace {

using testing::MakeArray;
using testing::ToVector;

TEST(LogicTest, Comparisons) {
    Array a = MakeArray<int32_t>(Shape{3}, {1, 2, 3});
    Array b = MakeArray<double>(Shape{3}, {1.5, 2, 2.5});
    EXPECT_EQ(ToVector<bool>(Equal(a, b)), (std::vector<bool>{false, true, false}));
    EXPECT_EQ(ToVector<bool>(NotEqual(a, b)), (std::vector<bool>{true, false, true}));
    EXPECT_EQ(ToVector<bool>(Greater(a, b)), (std::vector<bool>{false, false, true}));
    EXPECT_EQ(ToVector<bool>(GreaterEqual(a, Scalar{2})), (std::vector<bool>{false, true, true}));
    EXPECT_EQ(ToVector<bool>(Less(a, Scalar{2.5})), (std::vector<bool>{true, true, false}));
    EXPECT_EQ(ToVector<bool>(LessEqual(a, b)), (std::vector<bool>{true, true, false}));
    EXPECT_EQ(Equal(a, b).dtype(), Dtype::kBool);
    EXPECT_THROW(Equal(a, MakeArray<int32_t>(Shape{2}, {1, 2})), DimensionError);
}

TEST(LogicTest, LogicalOps) {
    Array p = MakeArray<bool>(Shape{4}, {true, true, false, false});
    Array q = MakeArray<int32_t>(Shape{4}, {5, 0, 3, 0});
    EXPECT_EQ(ToVector<bool>(LogicalAnd(p, q)), (std::vector<bool>{true, false, false, false}));
    EXPECT_EQ(ToVector<bool>(LogicalOr(p, q)), (std::vector<bool>{true, true, true, false}));
    EXPECT_EQ(ToVector<bool>(LogicalXor(p, q)), (std::vector<bool>{false, true, true, false}));
    EXPECT_EQ(ToVector<bool>(LogicalNot(q)), (std::vector<bool>{false, true, false, true}));
}

TEST(LogicTest, FloatPredicates) {
    double inf = std::numeric_limits<double>::infinity();
    Array x = MakeArray<double>(Shape{4}, {1, inf, -inf, std::numeric_limits<double>::quiet_NaN()});
    EXPECT_EQ(ToVector<bool>(IsInf(x)), (std::vector<bool>{false, true, true, false}));
    EXPECT_EQ(ToVector<bool>(IsNan(x)), (std::vector<bool>{false, false, false, true}));
    EXPECT_EQ(ToVector<bool>(IsFinite(x)), (std::vector<bool>{true, false, false, false}));
    EXPECT_EQ(ToVector<bool>(IsNan(MakeArray<int32_t>(Shape{1}, {1}))), (std::vector<bool>{false}));
}

}  // namespace
}  // namespace chainerx
