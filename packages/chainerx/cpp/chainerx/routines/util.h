#pragma once

#include <functional>
#include <memory>

#include "chainerx/array.h"
#include "chainerx/scalar.h"

namespace chainerx {
namespace internal {

// A 0-d array holding the scalar converted to dtype, on device.
Array ScalarArray(Scalar value, Dtype dtype, Device& device);

// a as dtype, without a copy when it already has it (differentiable).
Array CastIfNeeded(const Array& a, Dtype dtype);

// A differentiable function that returns a view of its argument (an index, a diagonal, ...).
using ViewFunction = std::function<Array(const Array&)>;

// The gradient of a view: zeros of base_shape with grad copied into view(zeros). Its own
// backward applies view again, so views are differentiable any number of times.
Array ScatterIntoZeros(const Array& grad, const Shape& base_shape, std::shared_ptr<const ViewFunction> view);

// The dtype in which a routine that sums products (linear, conv) computes a result of dtype:
// float32 for float16, float64 for integers and bool (exact up to 2**53), dtype itself otherwise.
Dtype GetProductSumComputeDtype(Dtype dtype);

// A result computed in GetProductSumComputeDtype(dtype) as dtype (differentiable). Integers wrap
// around as integer arithmetic does; bool is true where the sum is nonzero.
Array FromProductSumComputeDtype(const Array& out, Dtype dtype);

// Throws DtypeError unless the array has a floating dtype.
void CheckFloating(const Array& a, const char* routine);

}  // namespace internal
}  // namespace chainerx
