#pragma once

#include "chainerx/array.h"
#include "chainerx/kernel_registry.h"

namespace chainerx {

// out = a @ b for 2-D a (m, k), b (k, n) and a contiguous out (m, n), all of one numeric dtype.
class DotKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kDot;
    static constexpr const char* kName = "Dot";
    virtual void Call(const Array& a, const Array& b, const Array& out) = 0;
};

}  // namespace chainerx
