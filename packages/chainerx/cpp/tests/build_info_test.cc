#include "chainerx/build_info.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace chainerx {
namespace {

TEST(BuildInfoTest, ReportsVersionAndNativeBackend) {
    const BuildInfo& info = GetBuildInfo();
    EXPECT_FALSE(info.version.empty());
    EXPECT_EQ(info.version.rfind("8.", 0), 0u) << info.version;
    EXPECT_NE(std::find(info.backends.begin(), info.backends.end(), "native"), info.backends.end());
    EXPECT_FALSE(info.cuda_enabled);
    EXPECT_TRUE(info.blas == "openblas" || info.blas == "native") << info.blas;
}

TEST(BuildInfoTest, IsTheSameObjectEveryCall) { EXPECT_EQ(&GetBuildInfo(), &GetBuildInfo()); }

}  // namespace
}  // namespace chainerx
