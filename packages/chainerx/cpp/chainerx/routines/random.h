#pragma once

#include "chainerx/array.h"
#include "chainerx/device.h"
#include "chainerx/shape.h"

namespace chainerx {

// Samples of N(loc, scale^2); dtype must be floating.
Array RandomNormal(double loc, double scale, const Shape& shape, Dtype dtype = Dtype::kFloat64,
                   Device& device = GetDefaultDevice());
// Samples of U[low, high); dtype must be floating.
Array RandomUniform(double low, double high, const Shape& shape, Dtype dtype = Dtype::kFloat64,
                    Device& device = GetDefaultDevice());

}  // namespace chainerx
