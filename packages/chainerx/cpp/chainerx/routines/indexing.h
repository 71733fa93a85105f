#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "chainerx/array.h"
#include "chainerx/array_index.h"
#include "chainerx/scalar.h"

namespace chainerx {

// NumPy indexing, differentiable in a. Basic indices (integers, slices, new axes, one ellipsis)
// give a view. With index arrays (integer arrays broadcast together, boolean arrays standing for
// their nonzero()) the result is a copy whose indexed axes replace the arrays' place when all
// advanced indices (arrays and integers) are adjacent, and come first otherwise. Out-of-range
// indices raise IndexError.
Array At(const Array& a, const std::vector<ArrayIndex>& indices);

// What Take does with an index outside [-n, n) (NumPy's take modes 'raise', 'wrap', 'clip').
enum class IndexBoundsMode {
    kRaise,  // IndexError; negative indices count from the end
    kWrap,   // taken modulo n
    kClip,   // clipped to [0, n - 1] (so negative indices give the first element)
};

// Elements of a at integer `indices` along axis (the flattened array when absent); negative
// indices count from the end, out-of-range ones are handled by `mode`. Differentiable in a.
Array Take(const Array& a, const Array& indices, std::optional<int8_t> axis = std::nullopt,
           IndexBoundsMode mode = IndexBoundsMode::kRaise);

// condition ? x : y with broadcasting and promotion; differentiable in x and y.
Array Where(const Array& condition, const Array& x, const Array& y);
Array Where(const Array& condition, const Array& x, Scalar y);
Array Where(const Array& condition, Scalar x, const Array& y);
Array Where(const Array& condition, Scalar x, Scalar y);

// int64 index arrays of the non-zero elements, one per axis.
std::vector<Array> Nonzero(const Array& a);

// a[indices] = value with NumPy semantics (value broadcast to a[indices]'s shape and cast to a's
// dtype; with repeated array indices the last value wins); a must not be in a graph.
void SetItem(const Array& a, const std::vector<ArrayIndex>& indices, const Array& value);

namespace internal {
// Gathers along axes [axis, axis + k) of a with k int64 index arrays of one shape (broadcast views
// allowed) whose values are in range (negative ones count from the end): the result has shape
// a.shape[:axis] + indices.shape + a.shape[axis+k:]. Differentiable in a.
Array Gather(const Array& a, const std::vector<Array>& indices, int8_t axis);
// a with b (of Gather's result shape and a's dtype) added at the positions Gather reads; repeated
// positions accumulate. Differentiable in a and b.
Array AddAt(const Array& a, const std::vector<Array>& indices, int8_t axis, const Array& b);
}  // namespace internal

}  // namespace chainerx
