#pragma once

#include <cstdint>

#include "chainerx/array.h"
#include "chainerx/kernel_registry.h"
#include "chainerx/shape.h"

namespace chainerx {

// kSum/kMax/kMin: out has x's dtype. kArgMax/kArgMin: out is int64. kAll/kAny: out is bool.
enum class ReduceOp : int8_t { kSum, kMax, kMin, kArgMax, kArgMin, kAll, kAny };

// Reduces x over the sorted `axes`; out has x's shape without those axes.
class ReduceKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kReduce;
    static constexpr const char* kName = "Reduce";
    virtual void Call(ReduceOp op, const Array& x, const Axes& axes, const Array& out) = 0;
};

}  // namespace chainerx
