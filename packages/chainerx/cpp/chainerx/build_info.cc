#include "chainerx/build_info.h"

#include <string>

namespace chainerx {
namespace {

std::string CompilerName() {
#if defined(__clang__)
    return "clang " __clang_version__;
#elif defined(__GNUC__)
    return "gcc " __VERSION__;
#elif defined(_MSC_VER)
    return "msvc " + std::to_string(_MSC_VER);
#else
    return "unknown";
#endif
}

BuildInfo MakeBuildInfo() {
    BuildInfo info{};
    info.version = CHAINERX_VERSION;
    info.compiler = CompilerName();
    info.cxx_standard = std::to_string(__cplusplus);
    info.cuda_enabled = CHAINERX_BUILD_CUDA_ENABLED != 0;
    info.blas = CHAINERX_OPENBLAS_ENABLED != 0 ? "openblas" : "native";
    info.backends = {"native"};
    if (info.cuda_enabled) {
        info.backends.emplace_back("cuda");
    }
    return info;
}

}  // namespace

const BuildInfo& GetBuildInfo() {
    static const BuildInfo info = MakeBuildInfo();
    return info;
}

}  // namespace chainerx
