#pragma once

#include "chainerx/array.h"
#include "chainerx/kernel_registry.h"

namespace chainerx {

// Softmax cross entropy of logits x (n, c) against int64 labels t (n,), label -1 meaning
// "ignored": loss (n,) gets logsumexp(x[i]) - x[i, t[i]] (0 for ignored rows) and lse (n,) the
// row's logsumexp. loss has x's dtype; lse is float32 for float16 x (x's dtype otherwise).
// Labels outside [-1, c) raise IndexError.
class SoftmaxCrossEntropyKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kSoftmaxCrossEntropy;
    static constexpr const char* kName = "SoftmaxCrossEntropy";
    virtual void Call(const Array& x, const Array& t, const Array& loss, const Array& lse) = 0;
};

// Its gradient: gx (n, c) = gy[i] * (exp(x - lse[i]) - onehot(t[i])), zero rows for ignored
// labels. x, t and lse are as the forward kernel left them; gy (n,) has x's dtype.
class SoftmaxCrossEntropyGradKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kSoftmaxCrossEntropyGrad;
    static constexpr const char* kName = "SoftmaxCrossEntropyGrad";
    virtual void Call(const Array& x, const Array& t, const Array& lse, const Array& gy, const Array& gx) = 0;
};

}  // namespace chainerx
