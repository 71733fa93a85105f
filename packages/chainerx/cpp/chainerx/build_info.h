#pragma once

#include <string>
#include <vector>

namespace chainerx {

// What this copy of the library was built with: reported by chainerx.build_info() in Python.
struct BuildInfo {
    std::string version;
    std::string compiler;
    std::string cxx_standard;
    bool cuda_enabled;
    std::string blas;  // "openblas" or "native" (the GEMM of the native backend)
    std::vector<std::string> backends;
};

const BuildInfo& GetBuildInfo();

}  // namespace chainerx
