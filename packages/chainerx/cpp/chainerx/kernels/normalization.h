#pragma once

#include "chainerx/array.h"
#include "chainerx/kernel_registry.h"
#include "chainerx/shape.h"

namespace chainerx {

// Normalization kernels reduce x over the sorted `axes`; every per-channel array (gamma, beta,
// statistics, their gradients) has x's shape without those axes. Inputs and the running
// statistics may have any layout, the other outputs are contiguous. batch_mean and batch_inv_std
// have ComputeType's dtype (float32 for float16 x); every other array has x's dtype.

// out = gamma * (x - mean) * inv_std + beta with the batch's mean and inv_std = 1 / sqrt(var + eps)
// (biased variance), which are also written to batch_mean and batch_inv_std. The running statistics
// are updated in place: running = decay * running + (1 - decay) * batch statistic, with the
// unbiased variance (m / (m - 1) times the biased one, m the number of reduced elements).
class BatchNormKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kBatchNorm;
    static constexpr const char* kName = "BatchNorm";
    virtual void Call(const Array& x, const Array& gamma, const Array& beta, const Array& running_mean,
                      const Array& running_var, double eps, double decay, const Axes& axes, const Array& out,
                      const Array& batch_mean, const Array& batch_inv_std) = 0;
};

// The gradients of BatchNormKernel's out with respect to x, gamma and beta, given its gradient gy
// and the statistics the forward pass saved.
class BatchNormGradKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kBatchNormGrad;
    static constexpr const char* kName = "BatchNormGrad";
    virtual void Call(const Array& x, const Array& gamma, const Array& gy, const Array& batch_mean,
                      const Array& batch_inv_std, const Axes& axes, const Array& gx, const Array& ggamma,
                      const Array& gbeta) = 0;
};

// out = gamma * (x - mean) / sqrt(var + eps) + beta with the given statistics.
class FixedBatchNormKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kFixedBatchNorm;
    static constexpr const char* kName = "FixedBatchNorm";
    virtual void Call(const Array& x, const Array& gamma, const Array& beta, const Array& mean, const Array& var,
                      double eps, const Axes& axes, const Array& out) = 0;
};

}  // namespace chainerx
