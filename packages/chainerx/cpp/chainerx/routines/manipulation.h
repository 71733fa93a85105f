#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "chainerx/array.h"
#include "chainerx/shape.h"

namespace chainerx {

// All differentiable. Reshape, Transpose, BroadcastTo, Squeeze, ExpandDims, Swapaxes,
// Moveaxis and Flip return views; Reshape copies only when no view can express the result.

// One entry of shape may be -1 (inferred).
Array Reshape(const Array& a, const Shape& shape);
Array Ravel(const Array& a);
// Reverses the axes when none are given.
Array Transpose(const Array& a, const std::optional<Axes>& axes = std::nullopt);
Array BroadcastTo(const Array& a, const Shape& shape);
// Removes the given size-1 axes (all size-1 axes when none are given).
Array Squeeze(const Array& a, const std::optional<Axes>& axes = std::nullopt);
Array ExpandDims(const Array& a, int64_t axis);
Array Swapaxes(const Array& a, int64_t axis1, int64_t axis2);
Array Moveaxis(const Array& a, const std::vector<int64_t>& source, const std::vector<int64_t>& destination);
Array Flip(const Array& a, const std::optional<Axes>& axes = std::nullopt);
Array Fliplr(const Array& a);
Array Flipud(const Array& a);
Array AtLeast2D(const Array& a);
Array AtLeast3D(const Array& a);

// Inputs are promoted to one dtype.
Array Concatenate(const std::vector<Array>& arrays, std::optional<int64_t> axis = 0);
Array Stack(const std::vector<Array>& arrays, int64_t axis = 0);
Array HStack(const std::vector<Array>& arrays);
Array VStack(const std::vector<Array>& arrays);
Array DStack(const std::vector<Array>& arrays);

// Into `sections` equal parts (DimensionError if the axis does not divide evenly).
std::vector<Array> Split(const Array& a, int64_t sections, int64_t axis = 0);
// At the given indices along the axis.
std::vector<Array> Split(const Array& a, const std::vector<int64_t>& indices, int64_t axis = 0);
std::vector<Array> HSplit(const Array& a, int64_t sections);
std::vector<Array> VSplit(const Array& a, int64_t sections);
std::vector<Array> DSplit(const Array& a, int64_t sections);

// Repeats each element; the input is flattened when axis is not given.
Array Repeat(const Array& a, int64_t repeats, std::optional<int64_t> axis = std::nullopt);
Array Repeat(const Array& a, const std::vector<int64_t>& repeats, std::optional<int64_t> axis = std::nullopt);

namespace internal {
// The elements [start, stop) of one axis, as a differentiable view.
Array AxisSlice(const Array& a, int8_t axis, int64_t start, int64_t stop);
// A graph-free view of a broadcast to shape (shape must be a valid broadcast target).
Array BroadcastView(const Array& a, const Shape& shape);
}  // namespace internal

}  // namespace chainerx
