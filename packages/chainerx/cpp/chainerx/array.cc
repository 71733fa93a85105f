#include "chainerx/array.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "chainerx/backend.h"
#include "chainerx/backprop_mode.h"
#include "chainerx/backward.h"
#include "chainerx/backward_builder.h"
#include "chainerx/context.h"
#include "chainerx/error.h"
#include "chainerx/kernels/creation.h"
#include "chainerx/native/convert.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/indexing.h"
#include "chainerx/routines/linalg.h"
#include "chainerx/routines/manipulation.h"
#include "chainerx/routines/math.h"
#include "chainerx/routines/reduction.h"
#include "chainerx/routines/util.h"

namespace chainerx {

using internal::ArrayBody;

namespace internal {

Array MakeArray(const Shape& shape, const Strides& strides, Dtype dtype, Device& device, std::shared_ptr<void> data,
                int64_t offset) {
    return Array{std::make_shared<ArrayBody>(shape, strides, dtype, device, std::move(data), offset)};
}

Array MakeViewOf(const Array& a, const Shape& shape, const Strides& strides, int64_t offset) {
    return MakeArray(shape, strides, a.dtype(), a.device(), a.data(), offset);
}

void CheckNoGraphForInplace(const Array& a, const char* operation) {
    if (!a.body()->graphs.empty()) {
        throw ChainerxError{"in-place operation ", operation,
                            " on an array that is in a computational graph is not allowed, since backward may "
                            "need its values; operate on a.as_grad_stopped() if you are sure it is safe"};
    }
}

BackpropId ResolveBackpropId(const std::optional<BackpropId>& backprop_id) {
    if (!backprop_id.has_value()) return GetDefaultContext().default_backprop_id();
    backprop_id->context().CheckValidBackpropId(*backprop_id);
    return *backprop_id;
}

}  // namespace internal

Array& Array::RequireGrad(const std::optional<BackpropId>& backprop_id) {
    BackpropId id = internal::ResolveBackpropId(backprop_id);
    if (!IsFloating(dtype())) {
        throw DtypeError{"only arrays of a floating dtype can require gradients, got ", dtype()};
    }
    if (body_->FindGraph(id) != nullptr) throw ChainerxError{"array already requires gradient for graph ", id};
    body_->graphs.push_back({std::make_shared<internal::ArrayNode>(id, body_->meta(), body_, nullptr), nullptr});
    return *this;
}

bool Array::IsGradRequired(const std::optional<BackpropId>& backprop_id) const {
    return body_->FindGraph(internal::ResolveBackpropId(backprop_id)) != nullptr;
}

bool Array::IsBackpropRequired(const std::optional<BackpropId>& backprop_id) const {
    BackpropId id = internal::ResolveBackpropId(backprop_id);
    return body_->FindGraph(id) != nullptr && IsBackpropEnabled(id);
}

bool Array::IsBackpropRequired(AnyGraph) const {
    return std::any_of(body_->graphs.begin(), body_->graphs.end(),
                       [](const ArrayBody::GraphEntry& entry) { return IsBackpropEnabled(entry.node->backprop_id()); });
}

namespace {

ArrayBody::GraphEntry& GraphEntryOrThrow(const Array& a, const std::optional<BackpropId>& backprop_id) {
    BackpropId id = internal::ResolveBackpropId(backprop_id);
    ArrayBody::GraphEntry* entry = a.body()->FindGraph(id);
    if (entry == nullptr) {
        throw ChainerxError{"array is not in graph ", id, ": it has no gradient; call require_grad() first"};
    }
    return *entry;
}

}  // namespace

std::optional<Array> Array::GetGrad(const std::optional<BackpropId>& backprop_id) const {
    const ArrayBody::GraphEntry& entry = GraphEntryOrThrow(*this, backprop_id);
    if (entry.grad == nullptr) return std::nullopt;
    return Array{entry.grad};
}

void Array::SetGrad(const Array& grad, const std::optional<BackpropId>& backprop_id) const {
    ArrayBody::GraphEntry& entry = GraphEntryOrThrow(*this, backprop_id);
    if (grad.shape() != shape()) {
        throw DimensionError{"gradient shape ", grad.shape(), " does not match the array shape ", shape()};
    }
    if (grad.dtype() != dtype()) {
        throw DtypeError{"gradient dtype ", grad.dtype(), " does not match the array dtype ", dtype()};
    }
    CheckEqualDevices(device(), grad.device());
    entry.grad = grad.body();
}

void Array::ClearGrad(const std::optional<BackpropId>& backprop_id) const {
    GraphEntryOrThrow(*this, backprop_id).grad = nullptr;
}

void Array::Backward(const std::optional<BackpropId>& backprop_id, DoubleBackpropOption double_backprop,
                     bool retain_grad) const {
    chainerx::Backward({*this}, backprop_id, double_backprop, retain_grad);
}

Array Array::AsGradStopped(const std::vector<BackpropId>& backprop_ids) const {
    Array out = internal::MakeViewOf(*this, shape(), strides(), offset());
    if (!backprop_ids.empty()) {
        for (const ArrayBody::GraphEntry& entry : body_->graphs) {
            if (std::find(backprop_ids.begin(), backprop_ids.end(), entry.node->backprop_id()) == backprop_ids.end()) {
                out.body()->graphs.push_back({entry.node, nullptr});
            }
        }
    }
    return out;
}

Array Array::Copy() const { return chainerx::Copy(*this); }
Array Array::AsType(Dtype dtype, bool copy) const { return chainerx::AsType(*this, dtype, copy); }
Array Array::ToDevice(Device& device) const { return chainerx::ToDevice(*this, device); }

Array Array::MakeView() const {
    Array out = internal::MakeViewOf(*this, shape(), strides(), offset());
    BackwardBuilder bb{"view", {*this}, {out}};
    if (bb) bb.Define([](BackwardContext& ctx) { ctx.input_grad() = ctx.output_grad(); });
    return out;
}

Array Array::Reshape(const Shape& shape) const { return chainerx::Reshape(*this, shape); }
Array Array::Transpose(const std::optional<Axes>& axes) const { return chainerx::Transpose(*this, axes); }
Array Array::BroadcastTo(const Shape& shape) const { return chainerx::BroadcastTo(*this, shape); }
Array Array::Squeeze(const std::optional<Axes>& axes) const { return chainerx::Squeeze(*this, axes); }
Array Array::At(const std::vector<ArrayIndex>& indices) const { return chainerx::At(*this, indices); }
Array Array::Sum(const std::optional<Axes>& axes, bool keepdims) const { return chainerx::Sum(*this, axes, keepdims); }
Array Array::Max(const std::optional<Axes>& axes, bool keepdims) const { return AMax(*this, axes, keepdims); }
Array Array::Dot(const Array& b) const { return chainerx::Dot(*this, b); }
Array Array::Take(const Array& indices, std::optional<int8_t> axis) const {
    return chainerx::Take(*this, indices, axis);
}

Array Array::operator-() const { return Negative(*this); }
Array Array::operator+(const Array& rhs) const { return Add(*this, rhs); }
Array Array::operator-(const Array& rhs) const { return Subtract(*this, rhs); }
Array Array::operator*(const Array& rhs) const { return Multiply(*this, rhs); }
Array Array::operator/(const Array& rhs) const { return Divide(*this, rhs); }
Array Array::operator+(Scalar rhs) const { return Add(*this, rhs); }
Array Array::operator-(Scalar rhs) const { return Subtract(*this, rhs); }
Array Array::operator*(Scalar rhs) const { return Multiply(*this, rhs); }
Array Array::operator/(Scalar rhs) const { return Divide(*this, rhs); }
Array operator+(Scalar lhs, const Array& rhs) { return Add(lhs, rhs); }
Array operator-(Scalar lhs, const Array& rhs) { return Subtract(lhs, rhs); }
Array operator*(Scalar lhs, const Array& rhs) { return Multiply(lhs, rhs); }
Array operator/(Scalar lhs, const Array& rhs) { return Divide(lhs, rhs); }

#define CHAINERX_DEFINE_INPLACE(op, routine)                                                                \
    Array& Array::operator op(const Array& rhs) {                                                           \
        internal::routine(*this, rhs);                                                                      \
        return *this;                                                                                       \
    }                                                                                                       \
    Array& Array::operator op(Scalar rhs) {                                                                 \
        internal::routine(*this, internal::ScalarArray(rhs, ResultTypeWithScalar(dtype(), rhs), device())); \
        return *this;                                                                                       \
    }
CHAINERX_DEFINE_INPLACE(+=, AddInplace)
CHAINERX_DEFINE_INPLACE(-=, SubtractInplace)
CHAINERX_DEFINE_INPLACE(*=, MultiplyInplace)
CHAINERX_DEFINE_INPLACE(/=, DivideInplace)
#undef CHAINERX_DEFINE_INPLACE

namespace {

void FormatElements(std::ostringstream& os, const Array& host, int dim, const char* base) {
    if (dim == host.ndim()) {
        VisitDtype(host.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            T v = *reinterpret_cast<const T*>(base);
            if constexpr (std::is_same_v<T, bool>) {
                os << (v ? "True" : "False");
            } else if constexpr (std::is_integral_v<T>) {
                os << static_cast<int64_t>(v);
            } else {
                char buf[32];
                double d = static_cast<double>(static_cast<ComputeType<T>>(v));
                std::snprintf(buf, sizeof(buf), "%g", d);
                std::string s = buf;
                if (s.find_first_of(".en") == std::string::npos) s += ".";
                os << s;
            }
        });
        return;
    }
    os << "[";
    for (int64_t i = 0; i < host.shape()[dim]; ++i) {
        if (i > 0) os << ", ";
        FormatElements(os, host, dim + 1, base + i * host.strides()[dim]);
    }
    os << "]";
}

}  // namespace

std::string Array::ToString() const {
    std::ostringstream os;
    os << "array(";
    Device& host = GetDefaultContext().GetDevice("native", 0);
    if (device().IsHostMemory()) {
        FormatElements(os, *this, 0, static_cast<const char*>(raw_data()));
    } else {
        Array on_host = AsGradStopped().ToDevice(host);
        FormatElements(os, on_host, 0, static_cast<const char*>(on_host.raw_data()));
    }
    os << ", shape=" << shape() << ", dtype=" << dtype() << ", device='" << device().name() << "')";
    return os.str();
}

std::ostream& operator<<(std::ostream& os, const Array& a) { return os << a.ToString(); }

}  // namespace chainerx
