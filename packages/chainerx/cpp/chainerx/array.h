#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "chainerx/array_body.h"
#include "chainerx/backprop_id.h"
#include "chainerx/device.h"
#include "chainerx/dtype.h"
#include "chainerx/scalar.h"
#include "chainerx/shape.h"

namespace chainerx {

class ArrayIndex;  // array_index.h (it holds Arrays, so it includes this header)

// Selects every graph an array is in (`chainerx.anygraph` in Python).
struct AnyGraph {};

enum class DoubleBackpropOption : bool { kDisable = false, kEnable = true };

// A handle to an N-dimensional array on some device. Copies of a handle share the array;
// views (reshape, transpose, slicing, ...) share its memory.
class Array {
public:
    Array() = default;
    explicit Array(std::shared_ptr<internal::ArrayBody> body) : body_{std::move(body)} {}

    bool is_null() const { return body_ == nullptr; }
    const std::shared_ptr<internal::ArrayBody>& body() const { return body_; }

    const Shape& shape() const { return body_->shape; }
    const Strides& strides() const { return body_->strides; }
    int ndim() const { return body_->shape.ndim(); }
    Dtype dtype() const { return body_->dtype; }
    Device& device() const { return *body_->device; }
    int64_t offset() const { return body_->offset; }
    const std::shared_ptr<void>& data() const { return body_->data; }
    // Address of the first element.
    void* raw_data() const { return static_cast<char*>(body_->data.get()) + body_->offset; }
    int64_t GetTotalSize() const { return body_->shape.GetTotalSize(); }
    int64_t GetItemSize() const { return chainerx::GetItemSize(body_->dtype); }
    int64_t GetNBytes() const { return GetTotalSize() * GetItemSize(); }
    bool IsContiguous() const { return chainerx::IsContiguous(shape(), strides(), GetItemSize()); }

    // Autograd (backprop_id defaults to the context's default graph).
    Array& RequireGrad(const std::optional<BackpropId>& backprop_id = std::nullopt);
    bool IsGradRequired(const std::optional<BackpropId>& backprop_id = std::nullopt) const;
    // Grad is required and the current backprop mode records graphs for this id.
    bool IsBackpropRequired(const std::optional<BackpropId>& backprop_id = std::nullopt) const;
    // The same for at least one of the graphs the array is in.
    bool IsBackpropRequired(AnyGraph) const;
    // Throws ChainerxError when the array is not in that graph.
    std::optional<Array> GetGrad(const std::optional<BackpropId>& backprop_id = std::nullopt) const;
    void SetGrad(const Array& grad, const std::optional<BackpropId>& backprop_id = std::nullopt) const;
    void ClearGrad(const std::optional<BackpropId>& backprop_id = std::nullopt) const;
    void Backward(const std::optional<BackpropId>& backprop_id = std::nullopt,
                  DoubleBackpropOption double_backprop = DoubleBackpropOption::kDisable,
                  bool retain_grad = false) const;
    // A view sharing the data but in no graph (for all ids, or only the given ones).
    Array AsGradStopped(const std::vector<BackpropId>& backprop_ids = {}) const;

    // Copy and conversion.
    Array Copy() const;
    Array AsType(Dtype dtype, bool copy = true) const;
    Array ToDevice(Device& device) const;
    Array MakeView() const;

    // Views.
    Array Reshape(const Shape& shape) const;
    Array Transpose(const std::optional<Axes>& axes = std::nullopt) const;
    Array BroadcastTo(const Shape& shape) const;
    Array Squeeze(const std::optional<Axes>& axes = std::nullopt) const;
    Array At(const std::vector<ArrayIndex>& indices) const;

    // Reductions and others.
    Array Sum(const std::optional<Axes>& axes = std::nullopt, bool keepdims = false) const;
    Array Max(const std::optional<Axes>& axes = std::nullopt, bool keepdims = false) const;
    Array Dot(const Array& b) const;
    Array Take(const Array& indices, std::optional<int8_t> axis = std::nullopt) const;

    Array operator-() const;
    Array operator+(const Array& rhs) const;
    Array operator-(const Array& rhs) const;
    Array operator*(const Array& rhs) const;
    Array operator/(const Array& rhs) const;
    Array operator+(Scalar rhs) const;
    Array operator-(Scalar rhs) const;
    Array operator*(Scalar rhs) const;
    Array operator/(Scalar rhs) const;

    // In-place arithmetic; throws ChainerxError when the array is in a graph (see as_grad_stopped).
    Array& operator+=(const Array& rhs);
    Array& operator-=(const Array& rhs);
    Array& operator*=(const Array& rhs);
    Array& operator/=(const Array& rhs);
    Array& operator+=(Scalar rhs);
    Array& operator-=(Scalar rhs);
    Array& operator*=(Scalar rhs);
    Array& operator/=(Scalar rhs);

    // NumPy-like text, e.g. "array([1., 2.], shape=(2,), dtype=float32, device='native:0')".
    std::string ToString() const;

private:
    std::shared_ptr<internal::ArrayBody> body_;
};

Array operator+(Scalar lhs, const Array& rhs);
Array operator-(Scalar lhs, const Array& rhs);
Array operator*(Scalar lhs, const Array& rhs);
Array operator/(Scalar lhs, const Array& rhs);

std::ostream& operator<<(std::ostream& os, const Array& a);

namespace internal {

// Makes an array (no graph) over existing memory.
Array MakeArray(const Shape& shape, const Strides& strides, Dtype dtype, Device& device, std::shared_ptr<void> data,
                int64_t offset = 0);

// A new array body sharing a's memory with a different layout (no graph).
Array MakeViewOf(const Array& a, const Shape& shape, const Strides& strides, int64_t offset);

// Throws ChainerxError when `a` is in a graph, naming the operation that would write into it.
void CheckNoGraphForInplace(const Array& a, const char* operation);

BackpropId ResolveBackpropId(const std::optional<BackpropId>& backprop_id);

}  // namespace internal
}  // namespace chainerx
