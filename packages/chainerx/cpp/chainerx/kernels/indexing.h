#pragma once

#include <cstdint>
#include <vector>

#include "chainerx/array.h"
#include "chainerx/kernel_registry.h"

namespace chainerx {

// out = a.take(indices, axis); indices are int64 and already checked to be in range and
// non-negative. out's shape is a.shape[:axis] + indices.shape + a.shape[axis+1:].
class TakeKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kTake;
    static constexpr const char* kName = "Take";
    virtual void Call(const Array& a, const Array& indices, int8_t axis, const Array& out) = 0;
};

// out = a, then out[..., indices, ...] += b (repeated indices accumulate); b has take's output shape.
class AddAtKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kAddAt;
    static constexpr const char* kName = "AddAt";
    virtual void Call(const Array& a, const Array& indices, int8_t axis, const Array& b, const Array& out) = 0;
};

// The int64 index arrays of the non-zero elements of a, one per axis.
class NonzeroKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kNonzero;
    static constexpr const char* kName = "Nonzero";
    virtual std::vector<Array> Call(const Array& a) = 0;
};

}  // namespace chainerx
