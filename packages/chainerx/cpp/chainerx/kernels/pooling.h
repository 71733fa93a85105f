#pragma once

#include <cstdint>

#include "chainerx/array.h"
#include "chainerx/kernel_registry.h"
#include "chainerx/routines/pooling.h"
#include "chainerx/shape.h"

namespace chainerx {

// Pooling kernels work on arrays of shape (batch, channel, spatial...). A window of output
// position o along a spatial axis covers input positions [o * stride - pad, o * stride - pad + ksize);
// the window count of each axis is out's extent (cover_all is the routine's business). The inputs
// x, gy and ggx may have any layout; the outputs (and indices, which MaxPoolKernel wrote) are
// contiguous and written in full.

// out = the maximum of each window; indices (int64, out's shape) = the position of that maximum as
// a C-order offset within the spatial volume of x, or -1 for a window lying wholly in the padding
// (whose out is -inf). Padding never wins.
class MaxPoolKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kMaxPool;
    static constexpr const char* kName = "MaxPool";
    virtual void Call(const Array& x, const Dims& ksize, const Dims& stride, const Dims& pad, const Array& out,
                      const Array& indices) = 0;
};

// gx = zeros, then gx[b, c, indices[b, c, o]] += gy[b, c, o] (the transpose of the gather below).
class MaxPoolGradKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kMaxPoolGrad;
    static constexpr const char* kName = "MaxPoolGrad";
    virtual void Call(const Array& gy, const Array& indices, const Array& gx) = 0;
};

// ggy[b, c, o] = ggx[b, c, indices[b, c, o]] (0 where the index is -1).
class MaxPoolGradGradKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kMaxPoolGradGrad;
    static constexpr const char* kName = "MaxPoolGradGrad";
    virtual void Call(const Array& ggx, const Array& indices, const Array& ggy) = 0;
};

// out = the sum of each window divided as pad_mode says (an empty kIgnore window gives 0).
class AveragePoolKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kAveragePool;
    static constexpr const char* kName = "AveragePool";
    virtual void Call(const Array& x, const Dims& ksize, const Dims& stride, const Dims& pad,
                      AveragePoolPadMode pad_mode, const Array& out) = 0;
};

// The transpose of average pooling: gx = zeros, then every window of gx receives gy / divisor.
class AveragePoolGradKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kAveragePoolGrad;
    static constexpr const char* kName = "AveragePoolGrad";
    virtual void Call(const Array& gy, const Dims& ksize, const Dims& stride, const Dims& pad,
                      AveragePoolPadMode pad_mode, const Array& gx) = 0;
};

}  // namespace chainerx
