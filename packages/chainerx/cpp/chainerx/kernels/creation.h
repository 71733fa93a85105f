#pragma once

#include <cstdint>

#include "chainerx/array.h"
#include "chainerx/kernel_registry.h"
#include "chainerx/scalar.h"

namespace chainerx {

// dst[...] = src[...], converting dtypes; src and dst have the same shape and device.
class CopyKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kCopy;
    static constexpr const char* kName = "Copy";
    virtual void Call(const Array& src, const Array& dst) = 0;
};

// out[...] = value.
class FillKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kFill;
    static constexpr const char* kName = "Fill";
    virtual void Call(const Array& out, Scalar value) = 0;
};

// out[i] = start + i * step for a 1-D out.
class ArangeKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kArange;
    static constexpr const char* kName = "Arange";
    virtual void Call(Scalar start, Scalar step, const Array& out) = 0;
};

// out[i, j] = (j - i == k) for a 2-D out.
class EyeKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kEye;
    static constexpr const char* kName = "Eye";
    virtual void Call(int64_t k, const Array& out) = 0;
};

}  // namespace chainerx
