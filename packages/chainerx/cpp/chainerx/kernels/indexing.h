#pragma once

#include <cstdint>
#include <vector>

#include "chainerx/array.h"
#include "chainerx/kernel_registry.h"

namespace chainerx {

// Gathers along k consecutive axes [axis, axis + k) of a with k index arrays: int64, of one shape
// (broadcast views allowed), values in [-dim, dim) of their axis (negative ones count from the end).
// out is C-contiguous with shape a.shape[:axis] + indices.shape + a.shape[axis+k:], and
// out[p, i, q] = a[p, indices[0][i], ..., indices[k-1][i], q].
class TakeKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kTake;
    static constexpr const char* kName = "Take";
    virtual void Call(const Array& a, const std::vector<Array>& indices, int8_t axis, const Array& out) = 0;
};

// The reverse of Take, in place: writes values (of Take's output shape, any layout) into a (any
// view) at the positions Take would read. With accumulate, values at repeated positions are summed
// into a (numeric dtypes); otherwise they are assigned and the last one in C order wins.
class ScatterKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kScatter;
    static constexpr const char* kName = "Scatter";
    virtual void Call(const Array& a, const std::vector<Array>& indices, int8_t axis, const Array& values,
                      bool accumulate) = 0;
};

// The int64 index arrays of the non-zero elements of a, one per axis.
class NonzeroKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kNonzero;
    static constexpr const char* kName = "Nonzero";
    virtual std::vector<Array> Call(const Array& a) = 0;
};

}  // namespace chainerx
