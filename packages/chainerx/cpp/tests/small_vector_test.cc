#include "chainerx/small_vector.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace chainerx {
namespace {

using internal::SmallVector;

std::vector<std::string> Values(const SmallVector<std::string, 2>& v) { return {v.begin(), v.end()}; }

TEST(SmallVectorTest, GrowsFromInlineToHeap) {
    SmallVector<std::string, 2> v;
    EXPECT_TRUE(v.empty());
    for (int i = 0; i < 5; ++i) v.push_back(std::to_string(i));
    EXPECT_EQ(v.size(), 5u);
    EXPECT_EQ(Values(v), (std::vector<std::string>{"0", "1", "2", "3", "4"}));
    EXPECT_EQ(v.back(), "4");
    v.pop_back();
    v.resize(6);
    EXPECT_EQ(Values(v), (std::vector<std::string>{"0", "1", "2", "3", "", ""}));
    v.resize(1);
    EXPECT_EQ(Values(v), (std::vector<std::string>{"0"}));
}

TEST(SmallVectorTest, EmplaceOfOwnElementWhileGrowing) {
    SmallVector<std::string, 2> v{"a", "b"};
    v.push_back(v[0]);  // the argument lives in the storage being replaced
    v.emplace_back(v[3 - 1]);
    EXPECT_EQ(Values(v), (std::vector<std::string>{"a", "b", "a", "a"}));
}

TEST(SmallVectorTest, CopyAndMoveInlineAndHeap) {
    for (int n : {1, 2, 5}) {
        SmallVector<std::string, 2> v;
        for (int i = 0; i < n; ++i) v.push_back(std::string(30, static_cast<char>('a' + i)));
        SmallVector<std::string, 2> copy{v};
        EXPECT_EQ(Values(copy), Values(v));
        SmallVector<std::string, 2> moved{std::move(copy)};
        EXPECT_EQ(Values(moved), Values(v));
        EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): moved-from is left empty
        SmallVector<std::string, 2> assigned{"x", "y", "z"};
        assigned = v;
        EXPECT_EQ(Values(assigned), Values(v));
        assigned = std::move(moved);
        EXPECT_EQ(Values(assigned), Values(v));
        copy = assigned;  // a moved-from vector is usable again
        EXPECT_EQ(Values(copy), Values(v));
    }
}

TEST(SmallVectorTest, DestroysEveryElement) {
    auto counted = std::make_shared<int>(0);
    {
        SmallVector<std::shared_ptr<int>, 1> v;
        for (int i = 0; i < 4; ++i) v.push_back(counted);
        SmallVector<std::shared_ptr<int>, 1> w{v};
        EXPECT_EQ(counted.use_count(), 9);
        w.clear();
        EXPECT_EQ(counted.use_count(), 5);
        v = std::move(w);
    }
    EXPECT_EQ(counted.use_count(), 1);
}

}  // namespace
}  // namespace chainerx
