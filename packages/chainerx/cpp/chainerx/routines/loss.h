#pragma once

#include "chainerx/array.h"

namespace chainerx {

// Element-wise losses (no reduction) of floating inputs; x1 and x2 broadcast and promote as in
// arithmetic. Differentiable any number of times.
// |x1 - x2|.
Array AbsoluteError(const Array& x1, const Array& x2);
// (x1 - x2)^2.
Array SquaredError(const Array& x1, const Array& x2);
// With d = x1 - x2: d^2 / 2 where |d| <= delta, delta * (|d| - delta / 2) elsewhere.
Array HuberLoss(const Array& x1, const Array& x2, double delta);

enum class LossReduction { kNo, kSum, kMean };

// KL divergence of N(mean, exp(ln_var)) from N(0, 1): (mean^2 + exp(ln_var) - ln_var - 1) / 2,
// element-wise (kNo), or its sum or mean over all elements.
Array GaussianKlDivergence(const Array& mean, const Array& ln_var, LossReduction reduction = LossReduction::kNo);

// Binary cross entropy of logits x1 against integer labels x2 (x1's shape), element-wise;
// label -1 gives 0. Differentiable in x1.
Array SigmoidCrossEntropy(const Array& x1, const Array& x2);

// Cross entropy of softmax(x1) for logits x1 (n, classes) against integer labels x2 (n,), one
// loss per sample; label -1 gives 0 and labels outside [-1, classes) raise IndexError. One fused
// kernel each way; differentiable in x1 any number of times.
Array SoftmaxCrossEntropy(const Array& x1, const Array& x2);

}  // namespace chainerx
