#include "chainerx/routines/linear.h"

#include "chainerx/error.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/linalg.h"
#include "chainerx/routines/manipulation.h"
#include "chainerx/routines/math.h"
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
        throw DimensionError{"linear: x of shape ", x.shape(), " has ", in_size, " features per sample (n_batch_axes=",
                             n_batch_axes, ") but W of shape ", w.shape(), " takes ", w.shape()[1]};
    }
    if (b.has_value()) {
        CheckEqualDevices(x.device(), b->device());
        if (b->ndim() != 1 || b->shape()[0] != w.shape()[0]) {
            throw DimensionError{"linear: b must have shape (", w.shape()[0], ",) to match W of shape ", w.shape(),
                                 ", got ", b->shape()};
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
    // Explicit sizes: -1 cannot be inferred when the batch is empty.
    Array x2 = Reshape(internal::CastIfNeeded(x, compute), Shape{batch.GetTotalSize(), w.shape()[1]});
    Array y = Dot(x2, Transpose(internal::CastIfNeeded(w, compute)));
    if (b.has_value()) y = Add(y, internal::CastIfNeeded(*b, compute));
    Shape out_shape = batch;
    out_shape.push_back(w.shape()[0]);
    return internal::FromProductSumComputeDtype(Reshape(y, out_shape), dtype);
}

}  // namespace chainerx
