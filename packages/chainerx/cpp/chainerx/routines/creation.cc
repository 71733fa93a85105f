#include "chainerx/routines/creation.h"

#include <cmath>
#include <cstring>
#include <utility>

#include "chainerx/backend.h"
#include "chainerx/backward_builder.h"
#include "chainerx/context.h"
#include "chainerx/error.h"
#include "chainerx/kernels/creation.h"
#include "chainerx/routines/indexing.h"
#include "chainerx/routines/logic.h"
#include "chainerx/routines/manipulation.h"
#include "chainerx/routines/math.h"
#include "chainerx/routines/util.h"

namespace chainerx {

Array Empty(const Shape& shape, Dtype dtype, Device& device) {
    for (int64_t d : shape) {
        if (d < 0) throw DimensionError{"negative dimensions are not allowed: got shape ", shape};
    }
    int64_t item_size = GetItemSize(dtype);
    std::shared_ptr<void> data = device.Allocate(static_cast<size_t>(shape.GetTotalSize() * item_size));
    return internal::MakeArray(shape, ContiguousStrides(shape, item_size), dtype, device, std::move(data));
}

Array Full(const Shape& shape, Scalar fill_value, Dtype dtype, Device& device) {
    Array out = Empty(shape, dtype, device);
    device.backend().CallKernel<FillKernel>(out, fill_value);
    return out;
}

Array Full(const Shape& shape, Scalar fill_value, Device& device) {
    return Full(shape, fill_value, fill_value.GetDefaultDtype(), device);
}

Array Zeros(const Shape& shape, Dtype dtype, Device& device) { return Full(shape, 0, dtype, device); }
Array Ones(const Shape& shape, Dtype dtype, Device& device) { return Full(shape, 1, dtype, device); }

Array EmptyLike(const Array& a) { return Empty(a.shape(), a.dtype(), a.device()); }
Array EmptyLike(const Array& a, Device& device) { return Empty(a.shape(), a.dtype(), device); }
Array FullLike(const Array& a, Scalar fill_value) { return Full(a.shape(), fill_value, a.dtype(), a.device()); }
Array FullLike(const Array& a, Scalar fill_value, Device& device) {
    return Full(a.shape(), fill_value, a.dtype(), device);
}
Array ZerosLike(const Array& a) { return Zeros(a.shape(), a.dtype(), a.device()); }
Array ZerosLike(const Array& a, Device& device) { return Zeros(a.shape(), a.dtype(), device); }
Array OnesLike(const Array& a) { return Ones(a.shape(), a.dtype(), a.device()); }
Array OnesLike(const Array& a, Device& device) { return Ones(a.shape(), a.dtype(), device); }

Array FromContiguousHostData(const Shape& shape, Dtype dtype, const void* data, Device& device) {
    Array out = Empty(shape, dtype, device);
    Device& host = GetDefaultContext().GetDevice("native", 0);
    device.CopyFrom(out.raw_data(), data, static_cast<size_t>(out.GetNBytes()), host);
    return out;
}

Array FromData(const Shape& shape, Dtype dtype, std::shared_ptr<void> data, const std::optional<Strides>& strides,
               int64_t offset, Device& device) {
    Strides s = strides.has_value() ? *strides : ContiguousStrides(shape, GetItemSize(dtype));
    if (s.ndim() != shape.ndim()) {
        throw DimensionError{"strides ", s, " do not match shape ", shape, ": both need one entry per axis"};
    }
    return internal::MakeArray(shape, s, dtype, device, std::move(data), offset);
}

Array Arange(Scalar start, Scalar stop, Scalar step, const std::optional<Dtype>& dtype, Device& device) {
    bool all_int = start.kind() != Scalar::Kind::kFloat && stop.kind() != Scalar::Kind::kFloat &&
                   step.kind() != Scalar::Kind::kFloat;
    Dtype out_dtype = dtype.value_or(all_int ? Dtype::kInt64 : Dtype::kFloat64);
    double d_step = step.As<double>();
    if (d_step == 0) throw ChainerxError{"arange: step must not be zero"};
    double span = (stop.As<double>() - start.As<double>()) / d_step;
    int64_t size = std::max<int64_t>(0, static_cast<int64_t>(std::ceil(span)));
    if (out_dtype == Dtype::kBool) {
        if (size > 2) throw DtypeError{"arange of bool dtype can hold at most 2 elements, got ", size};
        Array out = Empty(Shape{size}, Dtype::kBool, device);
        Array as_int = Arange(start, stop, step, Dtype::kInt64, device);
        device.backend().CallKernel<CopyKernel>(as_int, out);
        return out;
    }
    Array out = Empty(Shape{size}, out_dtype, device);
    device.backend().CallKernel<ArangeKernel>(start, step, out);
    return out;
}

Array Linspace(Scalar start, Scalar stop, int64_t num, bool endpoint, const std::optional<Dtype>& dtype,
               Device& device) {
    if (num < 0) throw ChainerxError{"linspace: number of samples must be non-negative, got ", num};
    double a = start.As<double>();
    double b = stop.As<double>();
    int64_t div = endpoint ? num - 1 : num;
    double step = div > 0 ? (b - a) / static_cast<double>(div) : 0.0;
    Array out = Empty(Shape{num}, Dtype::kFloat64, device);
    device.backend().CallKernel<ArangeKernel>(a, step, out);
    if (endpoint && num > 1) {
        // Pin the last sample to stop exactly, as NumPy does.
        Array last = internal::MakeViewOf(out, Shape{}, Strides{}, (num - 1) * 8);
        device.backend().CallKernel<FillKernel>(last, b);
    }
    Dtype out_dtype = dtype.value_or(Dtype::kFloat64);
    if (out_dtype == Dtype::kFloat64) return out;
    // As NumPy (1.20 and later): integer samples are rounded towards minus infinity.
    DtypeKind kind = GetKind(out_dtype);
    return AsType(kind == DtypeKind::kInt || kind == DtypeKind::kUInt ? Floor(out) : out, out_dtype);
}

Array Eye(int64_t n, const std::optional<int64_t>& m, int64_t k, Dtype dtype, Device& device) {
    int64_t cols = m.value_or(n);
    if (n < 0 || cols < 0) throw DimensionError{"eye: N and M must be non-negative, got ", n, " and ", cols};
    Array out = Empty(Shape{n, cols}, dtype, device);
    device.backend().CallKernel<EyeKernel>(k, out);
    return out;
}

Array Identity(int64_t n, Dtype dtype, Device& device) { return Eye(n, std::nullopt, 0, dtype, device); }

Array Tri(int64_t n, const std::optional<int64_t>& m, int64_t k, Dtype dtype, Device& device) {
    int64_t cols = m.value_or(n);
    Array rows = Reshape(Arange(0, n, 1, Dtype::kInt64, device), Shape{n, 1});
    Array columns = Arange(-k, cols - k, 1, Dtype::kInt64, device);
    return AsType(GreaterEqual(rows, columns), dtype, false);
}

Array Copy(const Array& a) {
    Array out = EmptyLike(a);
    a.device().backend().CallKernel<CopyKernel>(a, out);
    BackwardBuilder bb{"copy", {a}, {out}};
    if (bb) bb.Define([](BackwardContext& ctx) { ctx.input_grad() = ctx.output_grad(); });
    return out;
}

Array AsContiguous(const Array& a) { return a.IsContiguous() ? a : Copy(a); }

Array AsType(const Array& a, Dtype dtype, bool copy) {
    if (!copy && a.dtype() == dtype) return a;
    Array out = Empty(a.shape(), dtype, a.device());
    a.device().backend().CallKernel<CopyKernel>(a, out);
    if (IsFloating(dtype) && IsFloating(a.dtype())) {
        BackwardBuilder bb{"astype", {a}, {out}};
        if (bb) {
            Dtype in_dtype = a.dtype();
            bb.Define([in_dtype](BackwardContext& ctx) {
                ctx.input_grad() = AsType(ctx.output_grad(), in_dtype, false);
            });
        }
    }
    return out;
}

Array ToDevice(const Array& a, Device& device) {
    if (&a.device() == &device) return a;
    Array src = a.IsContiguous() ? a : AsContiguous(a.AsGradStopped());
    Array out = Empty(a.shape(), a.dtype(), device);
    device.CopyFrom(out.raw_data(), src.raw_data(), static_cast<size_t>(out.GetNBytes()), a.device());
    BackwardBuilder bb{"to_device", {a}, {out}};
    if (bb) {
        Device* src_device = &a.device();
        bb.Define([src_device](BackwardContext& ctx) { ctx.input_grad() = ToDevice(ctx.output_grad(), *src_device); });
    }
    return out;
}

namespace {

// The k-th diagonal of a 2-D array as a strided view.
Array Diagonal(const Array& a, int64_t k) {
    int64_t rows = a.shape()[0];
    int64_t cols = a.shape()[1];
    int64_t len =
            k >= 0 ? std::max<int64_t>(0, std::min(rows, cols - k)) : std::max<int64_t>(0, std::min(rows + k, cols));
    int64_t offset = a.offset();
    if (len > 0) offset += k >= 0 ? k * a.strides()[1] : -k * a.strides()[0];
    Array out = internal::MakeViewOf(a, Shape{len}, Strides{a.strides()[0] + a.strides()[1]}, offset);
    BackwardBuilder bb{"diagonal", {a}, {out}};
    if (bb) {
        Shape shape = a.shape();
        bb.Define([shape, k](BackwardContext& ctx) {
            auto view = std::make_shared<const internal::ViewFunction>([k](const Array& g) { return Diagonal(g, k); });
            ctx.input_grad() = internal::ScatterIntoZeros(ctx.output_grad(), shape, view);
        });
    }
    return out;
}

}  // namespace

Array Diag(const Array& v, int64_t k) {
    if (v.ndim() == 2) return Diagonal(v, k);
    if (v.ndim() == 1) return Diagflat(v, k);
    throw DimensionError{"diag: input must be 1-D or 2-D, got shape ", v.shape()};
}

Array Diagflat(const Array& v, int64_t k) {
    Array flat = Reshape(v, Shape{v.GetTotalSize()});
    int64_t n = flat.shape()[0] + (k < 0 ? -k : k);
    auto view = std::make_shared<const internal::ViewFunction>([k](const Array& g) { return Diagonal(g, k); });
    return internal::ScatterIntoZeros(flat, Shape{n, n}, view);
}

Array Tril(const Array& m, int64_t k) {
    if (m.ndim() < 2) throw DimensionError{"tril: input must be at least 2-D, got shape ", m.shape()};
    Array mask = Tri(m.shape()[m.ndim() - 2], m.shape()[m.ndim() - 1], k, Dtype::kBool, m.device());
    return Where(mask, m, Scalar{0});
}

Array Triu(const Array& m, int64_t k) {
    if (m.ndim() < 2) throw DimensionError{"triu: input must be at least 2-D, got shape ", m.shape()};
    Array mask = Tri(m.shape()[m.ndim() - 2], m.shape()[m.ndim() - 1], k - 1, Dtype::kBool, m.device());
    return Where(mask, Scalar{0}, m);
}

std::vector<Array> Meshgrid(const std::vector<Array>& arrays, bool cartesian_indexing) {
    int n = static_cast<int>(arrays.size());
    Shape out_shape;
    for (const Array& a : arrays) out_shape.push_back(a.GetTotalSize());
    if (cartesian_indexing && n >= 2) std::swap(out_shape[0], out_shape[1]);
    std::vector<Array> result;
    for (int i = 0; i < n; ++i) {
        int axis = i;
        if (cartesian_indexing && n >= 2 && i < 2) axis = 1 - i;
        Shape shape(n, 1);
        shape[axis] = arrays[i].GetTotalSize();
        result.push_back(Copy(BroadcastTo(Reshape(arrays[i], shape), out_shape)));
    }
    return result;
}

namespace internal {

Array ScalarArray(Scalar value, Dtype dtype, Device& device) { return Full(Shape{}, value, dtype, device); }

Array CastIfNeeded(const Array& a, Dtype dtype) { return a.dtype() == dtype ? a : AsType(a, dtype); }

Array ScatterIntoZeros(const Array& grad, const Shape& base_shape, std::shared_ptr<const ViewFunction> view) {
    Array out = Zeros(base_shape, grad.dtype(), grad.device());
    Array target = (*view)(out);
    grad.device().backend().CallKernel<CopyKernel>(grad, target);
    BackwardBuilder bb{"scatter_into_zeros", {grad}, {out}};
    if (bb) bb.Define([view](BackwardContext& ctx) { ctx.input_grad() = (*view)(ctx.output_grad()); });
    return out;
}

Dtype GetProductSumComputeDtype(Dtype dtype) {
    if (dtype == Dtype::kFloat16) return Dtype::kFloat32;
    return IsFloating(dtype) ? dtype : Dtype::kFloat64;
}

Array FromProductSumComputeDtype(const Array& out, Dtype dtype) {
    DtypeKind kind = GetKind(dtype);
    // Through int64, whose conversion from an integral double is exact, so that the narrowing
    // step wraps like integer arithmetic.
    if (kind == DtypeKind::kInt || kind == DtypeKind::kUInt)
        return CastIfNeeded(CastIfNeeded(out, Dtype::kInt64), dtype);
    return CastIfNeeded(out, dtype);
}

void CheckFloating(const Array& a, const char* routine) {
    if (!IsFloating(a.dtype())) {
        throw DtypeError{routine, " requires a floating dtype, got ", a.dtype()};
    }
}

}  // namespace internal
}  // namespace chainerx
