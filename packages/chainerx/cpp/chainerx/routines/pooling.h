#pragma once

#include <cstdint>

#include "chainerx/array.h"
#include "chainerx/shape.h"

namespace chainerx {

// What the divisor of average pooling counts: every window element, padding included (kZero),
// or only the elements inside the input (kIgnore).
enum class AveragePoolPadMode : int8_t { kZero, kIgnore };

// Pooling over the spatial axes of x (batch, channel, spatial...): ksize, stride and pad have one
// entry per spatial axis. Along an axis of extent n the output has (n + 2 * pad - ksize) / stride + 1
// positions (floor division); with cover_all, (n + 2 * pad - ksize + stride - 1) / stride + 1, so
// the last window may reach past the padding and every input element is covered. x must be
// floating; the output has its dtype.

// The maximum of each window; padding never wins. Ties go to the first element in C order, which
// is also the one the gradient flows to.
Array MaxPool(const Array& x, const Dims& ksize, const Dims& stride, const Dims& pad, bool cover_all = false);

// The mean of each window.
Array AveragePool(const Array& x, const Dims& ksize, const Dims& stride, const Dims& pad,
                  AveragePoolPadMode pad_mode = AveragePoolPadMode::kIgnore);

}  // namespace chainerx
