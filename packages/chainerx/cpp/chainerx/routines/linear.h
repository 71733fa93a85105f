#pragma once

#include <optional>

#include "chainerx/array.h"

namespace chainerx {

// y = x.reshape(batch_shape + (-1,)) @ W.T + b with batch_shape = x.shape[:n_batch_axes]; y has
// shape batch_shape + (out_size,) for W of shape (out_size, in_size) and b of shape (out_size,).
// Inputs of any dtypes give their common dtype: float16 is computed in float32, integers and
// bool exactly in float64 (integers then wrap as integer arithmetic). Differentiable.
Array Linear(const Array& x, const Array& w, const std::optional<Array>& b = std::nullopt, int n_batch_axes = 1);

}  // namespace chainerx
