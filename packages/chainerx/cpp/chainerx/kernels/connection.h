#pragma once

#include <optional>

#include "chainerx/array.h"
#include "chainerx/kernel_registry.h"
#include "chainerx/shape.h"

namespace chainerx {

// The three kernels below share one geometry: an input position i and a kernel offset k meet
// the output position o where i = o * stride - pad + k; positions outside an image read as zero
// (or are dropped when written). The routine has chosen every output size (cover_all and
// conv_transpose's outsize are folded into them). Arrays are float32 or float64, all of one
// dtype; outputs are contiguous, inputs of any layout.

// out (n, out_c, o...) = sum over c and k of x (n, c, i...) * w (out_c, c, k...), plus b (out_c,).
class ConvKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kConv;
    static constexpr const char* kName = "Conv";
    virtual void Call(const Array& x, const Array& w, const std::optional<Array>& b, const Dims& stride,
                      const Dims& pad, const Array& out) = 0;
};

// The adjoint of ConvKernel in its input: x (n, c_in, o...) and w (c_in, c_out, k...) scatter
// into out (n, c_out, i...), plus b (c_out,).
class ConvTransposeKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kConvTranspose;
    static constexpr const char* kName = "ConvTranspose";
    virtual void Call(const Array& x, const Array& w, const std::optional<Array>& b, const Dims& stride,
                      const Dims& pad, const Array& out) = 0;
};

// The gradient of ConvKernel in w: gw (out_c, c, k...) = sum over n and o of gy (n, out_c, o...)
// * x (n, c, i...).
class ConvWeightGradKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kConvWeightGrad;
    static constexpr const char* kName = "ConvWeightGrad";
    virtual void Call(const Array& x, const Array& gy, const Dims& stride, const Dims& pad, const Array& gw) = 0;
};

}  // namespace chainerx
