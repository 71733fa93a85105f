#pragma once

#include <optional>

#include "chainerx/array.h"
#include "chainerx/shape.h"

namespace chainerx {

// Batch normalization over `axis` of x (by default axis 0 alone, as in v7). gamma, beta and the
// statistics have x's shape without those axes (or with them kept as 1) and x's device; they may
// have another floating dtype than x's, and are then used converted to x's dtype, which y has.

// y = gamma * (x - mean) / sqrt(var + eps) + beta with the batch's mean and (biased) variance.
// running_mean and running_var are updated in place to decay * running + (1 - decay) * batch
// statistic, the variance unbiased by m / (m - 1) for m reduced elements; they must not be in a graph.
// Differentiable with respect to x, gamma and beta, to any order.
Array BatchNorm(const Array& x, const Array& gamma, const Array& beta, const Array& running_mean,
                const Array& running_var, double eps = 2e-5, double decay = 0.9,
                const std::optional<Axes>& axis = std::nullopt);

// y = gamma * (x - mean) / sqrt(var + eps) + beta with the given statistics; differentiable with
// respect to every input.
Array FixedBatchNorm(const Array& x, const Array& gamma, const Array& beta, const Array& mean, const Array& var,
                     double eps = 2e-5, const std::optional<Axes>& axis = std::nullopt);

}  // namespace chainerx
