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

// Throws DtypeError unless the array has a floating dtype.
void CheckFloating(const Array& a, const char* routine);

}  // namespace internal
}  // namespace chainerx
