#pragma once

#include <cstdint>
#include <optional>

#include "chainerx/array.h"

namespace chainerx {

// The fraction of samples whose argmax over axis 1 of the scores y (n, classes, rest...) equals
// the integer label t (n, rest...), as a 0-d array of y's dtype. Labels equal to ignore_label
// are left out of both counts; when every label is ignored the accuracy is 0 (and NaN for an
// empty t without ignore_label). Not differentiable.
Array Accuracy(const Array& y, const Array& t, const std::optional<int64_t>& ignore_label = std::nullopt);

}  // namespace chainerx
