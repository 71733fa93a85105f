#include "chainerx/routines/reduction.h"

#include <algorithm>

#include "chainerx/backend.h"
#include "chainerx/backward_builder.h"
#include "chainerx/error.h"
#include "chainerx/kernels/reduction.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/indexing.h"
#include "chainerx/routines/logic.h"
#include "chainerx/routines/manipulation.h"
#include "chainerx/routines/math.h"
#include "chainerx/routines/util.h"

namespace chainerx {
namespace {

Axes ResolveAxes(const Array& a, const std::optional<Axes>& axes) {
    return axes.has_value() ? NormalizeAxes(*axes, a.ndim()) : AllAxes(a.ndim());
}

Shape ReducedShape(const Shape& shape, const Axes& axes, bool keepdims) {
    Shape out;
    for (int d = 0; d < shape.ndim(); ++d) {
        if (std::find(axes.begin(), axes.end(), d) == axes.end()) {
            out.push_back(shape[d]);
        } else if (keepdims) {
            out.push_back(1);
        }
    }
    return out;
}

// Runs the reduce kernel into an array of the reduced shape (keepdims applied as a view).
Array RunReduce(ReduceOp op, const Array& a, const Axes& axes, bool keepdims, Dtype out_dtype) {
    Array out = Empty(ReducedShape(a.shape(), axes, false), out_dtype, a.device());
    a.device().backend().CallKernel<ReduceKernel>(op, a, axes, out);
    if (keepdims) out = Reshape(out, ReducedShape(a.shape(), axes, true));
    return out;
}

void CheckNonEmpty(const Array& a, const Axes& axes, const char* name) {
    for (int8_t ax : axes) {
        if (a.shape()[ax] == 0) {
            throw DimensionError{name, ": zero-size array (shape ", a.shape(),
                                 ") along a reduced axis has no identity"};
        }
    }
    if (axes.empty() && a.GetTotalSize() == 0) {
        throw DimensionError{name, ": zero-size array (shape ", a.shape(), ") has no identity"};
    }
}

// The gradient of a reduction, broadcast back to the input: gy with the reduced axes restored.
Array BroadcastBack(const Array& gy, const Shape& in_shape, const Axes& axes, bool keepdims) {
    Array g = keepdims ? gy : Reshape(gy, ReducedShape(in_shape, axes, true));
    return BroadcastTo(g, in_shape);
}

int64_t CountOf(const Shape& shape, const Axes& axes) {
    int64_t n = 1;
    for (int8_t ax : axes) n *= shape[ax];
    return n;
}

Array MaxMin(ReduceOp op, const Array& a, const std::optional<Axes>& axes_in, bool keepdims, const char* name) {
    Axes axes = ResolveAxes(a, axes_in);
    CheckNonEmpty(a, axes, name);
    Array out = RunReduce(op, a, axes, keepdims, a.dtype());
    BackwardBuilder bb{name, {a}, {out}};
    if (bb) {
        Array mask = Equal(a.AsGradStopped(), BroadcastBack(out.AsGradStopped(), a.shape(), axes, keepdims));
        Shape in_shape = a.shape();
        bb.Define([mask, in_shape, axes, keepdims](BackwardContext& ctx) {
            ctx.input_grad() = Where(mask, BroadcastBack(ctx.output_grad(), in_shape, axes, keepdims), Scalar{0});
        });
    }
    return out;
}

Array ArgMaxMin(ReduceOp op, const Array& a, const std::optional<int8_t>& axis, const char* name) {
    Array src = axis.has_value() ? a : Reshape(a.AsGradStopped(), Shape{a.GetTotalSize()});
    Axes axes{axis.has_value() ? NormalizeAxis(*axis, a.ndim()) : int8_t{0}};
    if (src.ndim() == 0) throw DimensionError{name, ": expected an array with at least one dimension"};
    CheckNonEmpty(src, axes, name);
    return RunReduce(op, src, axes, false, Dtype::kInt64);
}

Axes DefaultSoftmaxAxes(const Array& a, const std::optional<Axes>& axes) {
    if (axes.has_value()) return *axes;
    if (a.ndim() == 0) throw DimensionError{"softmax needs an array with at least one dimension"};
    return Axes{static_cast<int8_t>(a.ndim() >= 2 ? 1 : 0)};
}

}  // namespace

Array Sum(const Array& a, const std::optional<Axes>& axes_in, bool keepdims) {
    Axes axes = ResolveAxes(a, axes_in);
    Dtype dtype = IsFloating(a.dtype()) ? a.dtype() : Dtype::kInt64;
    Array src = internal::CastIfNeeded(a, dtype);
    Array out = RunReduce(ReduceOp::kSum, src, axes, keepdims, dtype);
    if (IsFloating(dtype)) {
        BackwardBuilder bb{"sum", {src}, {out}};
        if (bb) {
            Shape in_shape = src.shape();
            bb.Define([in_shape, axes, keepdims](BackwardContext& ctx) {
                ctx.input_grad() = BroadcastBack(ctx.output_grad(), in_shape, axes, keepdims);
            });
        }
    }
    return out;
}

Array Mean(const Array& a, const std::optional<Axes>& axes_in, bool keepdims) {
    Axes axes = ResolveAxes(a, axes_in);
    Array x = IsFloating(a.dtype()) ? a : AsType(a, Dtype::kFloat64);
    int64_t n = CountOf(a.shape(), axes);
    return Divide(Sum(x, axes, keepdims), Scalar{static_cast<double>(n)});
}

Array Var(const Array& a, const std::optional<Axes>& axes_in, bool keepdims) {
    Axes axes = ResolveAxes(a, axes_in);
    Array x = IsFloating(a.dtype()) ? a : AsType(a, Dtype::kFloat64);
    Array centered = Subtract(x, Mean(x, axes, true));
    return Mean(Square(centered), axes, keepdims);
}

Array AMax(const Array& a, const std::optional<Axes>& axes, bool keepdims) {
    return MaxMin(ReduceOp::kMax, a, axes, keepdims, "amax");
}

Array AMin(const Array& a, const std::optional<Axes>& axes, bool keepdims) {
    return MaxMin(ReduceOp::kMin, a, axes, keepdims, "amin");
}

Array ArgMax(const Array& a, const std::optional<int8_t>& axis) {
    return ArgMaxMin(ReduceOp::kArgMax, a, axis, "argmax");
}
Array ArgMin(const Array& a, const std::optional<int8_t>& axis) {
    return ArgMaxMin(ReduceOp::kArgMin, a, axis, "argmin");
}

Array All(const Array& a, const std::optional<Axes>& axes, bool keepdims) {
    return RunReduce(ReduceOp::kAll, a, ResolveAxes(a, axes), keepdims, Dtype::kBool);
}

Array Any(const Array& a, const std::optional<Axes>& axes, bool keepdims) {
    return RunReduce(ReduceOp::kAny, a, ResolveAxes(a, axes), keepdims, Dtype::kBool);
}

Array Logsumexp(const Array& a, const std::optional<Axes>& axes_in, bool keepdims) {
    Axes axes = ResolveAxes(a, axes_in);
    Array x = IsFloating(a.dtype()) ? a : AsType(a, Dtype::kFloat64);
    // Computed outside the graph, shifted by the maximum so exp cannot overflow; one graph node.
    Array xs = x.AsGradStopped();
    Array shift = AMax(xs, axes, true);
    Array lse = Add(Log(Sum(Exp(Subtract(xs, shift)), axes, true)), shift);
    Array out = keepdims ? lse : Reshape(lse, ReducedShape(a.shape(), axes, false));
    BackwardBuilder bb{"logsumexp", {x}, {out}};
    if (bb) {
        bb.RetainOutput(0);
        Shape in_shape = x.shape();
        bb.Define([x, axes, keepdims, in_shape](BackwardContext& ctx) {
            Array y = BroadcastBack(ctx.GetRetainedOutput(0), in_shape, axes, keepdims);
            Array gy = BroadcastBack(ctx.output_grad(), in_shape, axes, keepdims);
            ctx.input_grad() = Multiply(gy, Exp(Subtract(x, y)));
        });
    }
    return out;
}

Array LogSoftmax(const Array& a, const std::optional<Axes>& axes) {
    Axes ax = NormalizeAxes(DefaultSoftmaxAxes(a, axes), a.ndim());
    Array x = IsFloating(a.dtype()) ? a : AsType(a, Dtype::kFloat64);
    Array xs = x.AsGradStopped();
    Array out = Subtract(xs, Logsumexp(xs, ax, true));
    BackwardBuilder bb{"log_softmax", {x}, {out}};
    if (bb) {
        bb.RetainOutput(0);
        bb.Define([ax](BackwardContext& ctx) {
            // d log_softmax: gx = gy - softmax * sum(gy), with softmax = exp(y).
            const Array& gy = ctx.output_grad();
            Array y = ctx.GetRetainedOutput(0);
            ctx.input_grad() = Subtract(gy, Multiply(Exp(y), Sum(gy, ax, true)));
        });
    }
    return out;
}

Array Softmax(const Array& a, const std::optional<Axes>& axes) {
    Axes ax = NormalizeAxes(DefaultSoftmaxAxes(a, axes), a.ndim());
    Array x = IsFloating(a.dtype()) ? a : AsType(a, Dtype::kFloat64);
    Array xs = x.AsGradStopped();
    Array shifted = Exp(Subtract(xs, AMax(xs, ax, true)));
    Array out = Divide(shifted, Sum(shifted, ax, true));
    BackwardBuilder bb{"softmax", {x}, {out}};
    if (bb) {
        bb.RetainOutput(0);
        bb.Define([ax](BackwardContext& ctx) {
            // gx = y * (gy - sum(gy * y)).
            const Array& gy = ctx.output_grad();
            Array y = ctx.GetRetainedOutput(0);
            ctx.input_grad() = Multiply(y, Subtract(gy, Sum(Multiply(gy, y), ax, true)));
        });
    }
    return out;
}

namespace internal {

Array SumTo(const Array& grad, const Shape& shape) {
    if (grad.shape() == shape) return grad;
    int lead = grad.ndim() - shape.ndim();
    Axes axes;
    for (int i = 0; i < grad.ndim(); ++i) {
        if (i < lead || (shape[i - lead] == 1 && grad.shape()[i] != 1)) axes.push_back(static_cast<int8_t>(i));
    }
    Array summed = Sum(grad, axes, true);
    return lead == 0 ? summed : Reshape(summed, shape);
}

}  // namespace internal
}  // namespace chainerx
