#pragma once

#include <optional>

#include "chainerx/array.h"
#include "chainerx/shape.h"

namespace chainerx {

// Reductions over `axes` (all axes when absent), NumPy semantics. Sum of bool or integers
// gives int64; Mean and Var of integers give float64.
Array Sum(const Array& a, const std::optional<Axes>& axes = std::nullopt, bool keepdims = false);
Array Mean(const Array& a, const std::optional<Axes>& axes = std::nullopt, bool keepdims = false);
Array Var(const Array& a, const std::optional<Axes>& axes = std::nullopt, bool keepdims = false);
// Max and Min give every maximal (minimal) element the full gradient.
Array AMax(const Array& a, const std::optional<Axes>& axes = std::nullopt, bool keepdims = false);
Array AMin(const Array& a, const std::optional<Axes>& axes = std::nullopt, bool keepdims = false);
// One axis or the flattened array; int64 indices.
Array ArgMax(const Array& a, const std::optional<int8_t>& axis = std::nullopt);
Array ArgMin(const Array& a, const std::optional<int8_t>& axis = std::nullopt);
Array All(const Array& a, const std::optional<Axes>& axes = std::nullopt, bool keepdims = false);
Array Any(const Array& a, const std::optional<Axes>& axes = std::nullopt, bool keepdims = false);
Array Logsumexp(const Array& a, const std::optional<Axes>& axes = std::nullopt, bool keepdims = false);
// Over axis 1 by default (Chainer's convention; axis 0 for 1-D input).
Array LogSoftmax(const Array& a, const std::optional<Axes>& axes = std::nullopt);
Array Softmax(const Array& a, const std::optional<Axes>& axes = std::nullopt);

namespace internal {
// Sums a broadcast gradient back to `shape` (the inverse of broadcasting to grad's shape).
Array SumTo(const Array& grad, const Shape& shape);
}  // namespace internal

}  // namespace chainerx
