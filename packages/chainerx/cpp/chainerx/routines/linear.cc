#include "chainerx/routines/linear.h"

#include <vector>

#include "chainerx/backward_builder.h"
#include "chainerx/error.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/linalg.h"
#include "chainerx/routines/manipulation.h"
#include "chainerx/routines/math.h"
#include "chainerx/routines/reduction.h"
#include "chainerx/routines/util.h"

namespace chainerx {
namespace {

void CheckLinearArgs(const Array& x, const Array& w, const std::optional<Array>& b, int n_batch_axes) {
    if (n_batch_axes < 1) throw DimensionError{"linear: n_batch_axes must be at least 1, got ", n_batch_axes};
    CheckEqualDevices(x.device(), w.device());
    if (w.ndim() != 2) throw DimensionError{"linear: W must be 2-D (out_size, in_size), got shape ", w.shape()};
    if (x.ndim() <= n_batch_axes) {
        throw DimensionError{"linear: x of shape ", x.shape(), " needs axes after its ", n_batch_axes,
                             " batch axes (n_batch_axes)"};
    }
    int64_t in_size = 1;
    for (int d = n_batch_axes; d < x.ndim(); ++d) in_size *= x.shape()[d];
    if (in_size != w.shape()[1]) {
        throw DimensionError{
                "linear: x of shape ", x.shape(),           " has ",   in_size,   " features per sample (n_batch_axes=",
                n_batch_axes,          ") but W of shape ", w.shape(), " takes ", w.shape()[1]};
    }
    if (b.has_value()) {
        CheckEqualDevices(x.device(), b->device());
        if (b->ndim() != 1 || b->shape()[0] != w.shape()[0]) {
            throw DimensionError{"linear: b must have shape (",
                                 w.shape()[0],
                                 ",) to match W of shape ",
                                 w.shape(),
                                 ", got ",
                                 b->shape()};
        }
    }
}

}  // namespace

Array Linear(const Array& x, const Array& w, const std::optional<Array>& b, int n_batch_axes) {
    CheckLinearArgs(x, w, b, n_batch_axes);
    Dtype dtype = PromoteTypes(x.dtype(), w.dtype());
    if (b.has_value()) dtype = PromoteTypes(dtype, b->dtype());
    Dtype compute = internal::GetProductSumComputeDtype(dtype);
    Shape batch(x.shape().begin(), x.shape().begin() + n_batch_axes);
    Shape out_shape = batch;
    out_shape.push_back(w.shape()[0]);
    // Explicit sizes: -1 cannot be inferred when the batch is empty.
    Shape x2_shape{batch.GetTotalSize(), w.shape()[1]};
    bool one_dtype = x.dtype() == compute && w.dtype() == compute && (!b.has_value() || b->dtype() == compute);
    if (!one_dtype) {
        // Mixed or half precision: composed of differentiable routines (casts included).
        Array x2 = Reshape(internal::CastIfNeeded(x, compute), x2_shape);
        Array y = Dot(x2, Transpose(internal::CastIfNeeded(w, compute)));
        if (b.has_value()) y = Add(y, internal::CastIfNeeded(*b, compute));
        return internal::FromProductSumComputeDtype(Reshape(y, out_shape), dtype);
    }
    // One node with its own backward, so that the gradient of W is a C-contiguous (out, in)
    // array (through Transpose it would be a transposed view, slow for elementwise updates).
    Array x2 = Reshape(x, x2_shape);
    Array y = Dot(x2.AsGradStopped(), Transpose(w.AsGradStopped()));
    if (b.has_value()) y = Add(y, b->AsGradStopped());
    std::vector<Array> inputs{x2, w};
    if (b.has_value()) inputs.push_back(*b);
    BackwardBuilder bb{"linear", inputs, {y}};
    if (bb) {
        bb.Define([x2, w, has_b = b.has_value()](BackwardContext& ctx) {
            const Array& gy = ctx.output_grad();
            if (ctx.is_input_grad_required(0)) ctx.input_grad(0) = Dot(gy, w);
            if (ctx.is_input_grad_required(1)) ctx.input_grad(1) = Dot(Transpose(gy), x2);
            if (has_b && ctx.is_input_grad_required(2)) ctx.input_grad(2) = Sum(gy, Axes{0});
        });
    }
    return Reshape(y, out_shape);
}

}  // namespace chainerx
