#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "chainerx/array.h"
#include "chainerx/array_index.h"
#include "chainerx/scalar.h"

namespace chainerx {

// Basic indexing (integers, slices, new axes, one ellipsis): a differentiable view.
Array At(const Array& a, const std::vector<ArrayIndex>& indices);

// Elements of a at integer `indices` along axis (the flattened array when absent); negative
// indices count from the end, out-of-range ones raise IndexError. Differentiable in a.
Array Take(const Array& a, const Array& indices, std::optional<int8_t> axis = std::nullopt);

// condition ? x : y with broadcasting and promotion; differentiable in x and y.
Array Where(const Array& condition, const Array& x, const Array& y);
Array Where(const Array& condition, const Array& x, Scalar y);
Array Where(const Array& condition, Scalar x, const Array& y);
Array Where(const Array& condition, Scalar x, Scalar y);

// int64 index arrays of the non-zero elements, one per axis.
std::vector<Array> Nonzero(const Array& a);

// Writes value into a[indices] (a view); a must not be in a graph.
void SetItem(const Array& a, const std::vector<ArrayIndex>& indices, const Array& value);

namespace internal {
// a with b added at `indices` along axis (b has Take's output shape); differentiable.
Array AddAt(const Array& a, const Array& indices, int8_t axis, const Array& b);
}  // namespace internal

}  // namespace chainerx
