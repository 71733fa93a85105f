#pragma once

#include "chainerx/array.h"

namespace chainerx {

// NumPy's dot: products of 0-d operands, inner product of vectors, matrix product, and for N-d
// a sum over the last axis of a and the second-to-last of b. Differentiable.
Array Dot(const Array& a, const Array& b);

// NumPy's matmul: matrix products broadcast over leading (batch) axes. Differentiable.
Array Matmul(const Array& a, const Array& b);

}  // namespace chainerx
