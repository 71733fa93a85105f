#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "chainerx/array.h"
#include "chainerx/device.h"
#include "chainerx/dtype.h"
#include "chainerx/scalar.h"
#include "chainerx/shape.h"

namespace chainerx {

Array Empty(const Shape& shape, Dtype dtype, Device& device = GetDefaultDevice());
Array Full(const Shape& shape, Scalar fill_value, Dtype dtype, Device& device = GetDefaultDevice());
// The dtype is the scalar's own (bool, int64 or float64).
Array Full(const Shape& shape, Scalar fill_value, Device& device = GetDefaultDevice());
Array Zeros(const Shape& shape, Dtype dtype, Device& device = GetDefaultDevice());
Array Ones(const Shape& shape, Dtype dtype, Device& device = GetDefaultDevice());

// The *_like functions use a's shape and dtype, and a's device unless one is given.
Array EmptyLike(const Array& a);
Array EmptyLike(const Array& a, Device& device);
Array FullLike(const Array& a, Scalar fill_value);
Array FullLike(const Array& a, Scalar fill_value, Device& device);
Array ZerosLike(const Array& a);
Array ZerosLike(const Array& a, Device& device);
Array OnesLike(const Array& a);
Array OnesLike(const Array& a, Device& device);

// Copies C-contiguous host memory into a new array.
Array FromContiguousHostData(const Shape& shape, Dtype dtype, const void* data, Device& device = GetDefaultDevice());
// Wraps existing memory of the device without copying (strides default to C-contiguous).
Array FromData(const Shape& shape, Dtype dtype, std::shared_ptr<void> data,
               const std::optional<Strides>& strides = std::nullopt, int64_t offset = 0,
               Device& device = GetDefaultDevice());

// [start, stop) in steps; the dtype defaults to int64 when all three are ints, else float64.
Array Arange(Scalar start, Scalar stop, Scalar step = 1, const std::optional<Dtype>& dtype = std::nullopt,
             Device& device = GetDefaultDevice());
Array Linspace(Scalar start, Scalar stop, int64_t num = 50, bool endpoint = true,
               const std::optional<Dtype>& dtype = std::nullopt, Device& device = GetDefaultDevice());
Array Eye(int64_t n, const std::optional<int64_t>& m = std::nullopt, int64_t k = 0, Dtype dtype = Dtype::kFloat64,
          Device& device = GetDefaultDevice());
Array Identity(int64_t n, Dtype dtype = Dtype::kFloat64, Device& device = GetDefaultDevice());
// Ones at and below diagonal k of an n x m matrix.
Array Tri(int64_t n, const std::optional<int64_t>& m = std::nullopt, int64_t k = 0, Dtype dtype = Dtype::kFloat64,
          Device& device = GetDefaultDevice());

// Differentiable.
Array Copy(const Array& a);
Array AsContiguous(const Array& a);
Array AsType(const Array& a, Dtype dtype, bool copy = true);
Array ToDevice(const Array& a, Device& device);
// The k-th diagonal of a 2-D array (a view), or the 2-D array with a 1-D array on diagonal k.
Array Diag(const Array& v, int64_t k = 0);
// A 2-D array with the flattened input on diagonal k.
Array Diagflat(const Array& v, int64_t k = 0);
Array Tril(const Array& m, int64_t k = 0);
Array Triu(const Array& m, int64_t k = 0);
// Coordinate matrices; "xy" (Cartesian) or "ij" (matrix) indexing.
std::vector<Array> Meshgrid(const std::vector<Array>& arrays, bool cartesian_indexing = true);

}  // namespace chainerx
