#include "chainerx/routines/linalg.h"

#include <vector>

#include "chainerx/backend.h"
#include "chainerx/backward_builder.h"
#include "chainerx/error.h"
#include "chainerx/kernels/linalg.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/indexing.h"
#include "chainerx/routines/logic.h"
#include "chainerx/routines/manipulation.h"
#include "chainerx/routines/math.h"
#include "chainerx/routines/util.h"

namespace chainerx {
namespace {

// (m, k) x (k, n) of one dtype.
Array Dot2D(const Array& a, const Array& b) {
    if (a.dtype() == Dtype::kFloat16) return AsType(Dot2D(AsType(a, Dtype::kFloat32), AsType(b, Dtype::kFloat32)), Dtype::kFloat16);
    if (a.dtype() == Dtype::kBool) {
        return NotEqual(Dot2D(AsType(a, Dtype::kInt64), AsType(b, Dtype::kInt64)), Scalar{0});
    }
    Array out = Empty(Shape{a.shape()[0], b.shape()[1]}, a.dtype(), a.device());
    a.device().backend().CallKernel<DotKernel>(a, b, out);
    BackwardBuilder bb{"dot", {a, b}, {out}};
    if (bb) {
        bb.Define([a, b](BackwardContext& ctx) {
            const Array& gy = ctx.output_grad();
            if (ctx.is_input_grad_required(0)) ctx.input_grad(0) = Dot2D(gy, Transpose(b));
            if (ctx.is_input_grad_required(1)) ctx.input_grad(1) = Dot2D(Transpose(a), gy);
        });
    }
    return out;
}

void CheckAligned(const Array& a, const Array& b, int a_axis, int b_axis) {
    if (a.shape()[a_axis] != b.shape()[b_axis]) {
        throw DimensionError{"shapes ", a.shape(), " and ", b.shape(), " not aligned: ", a.shape()[a_axis], " (dim ",
                             a_axis, ") != ", b.shape()[b_axis], " (dim ", b_axis, ")"};
    }
}

}  // namespace

Array Dot(const Array& a_in, const Array& b_in) {
    CheckEqualDevices(a_in.device(), b_in.device());
    Dtype dtype = PromoteTypes(a_in.dtype(), b_in.dtype());
    Array a = internal::CastIfNeeded(a_in, dtype);
    Array b = internal::CastIfNeeded(b_in, dtype);
    if (a.ndim() == 0 || b.ndim() == 0) return Multiply(a, b);
    int b_axis = b.ndim() == 1 ? 0 : b.ndim() - 2;
    CheckAligned(a, b, a.ndim() - 1, b_axis);
    int64_t k = a.shape()[a.ndim() - 1];
    Shape out_shape;
    for (int d = 0; d < a.ndim() - 1; ++d) out_shape.push_back(a.shape()[d]);
    for (int d = 0; d < b.ndim(); ++d) {
        if (d != b_axis) out_shape.push_back(b.shape()[d]);
    }
    // Contracting over an empty axis gives zeros.
    if (k == 0) return Zeros(out_shape, dtype, a.device());
    // Matrices need none of the reshapes below (each would be one more graph node).
    if (a.ndim() == 2 && b.ndim() == 2) return Dot2D(a, b);
    Array a2 = Reshape(a, Shape{-1, k});
    Array b2 = b.ndim() == 1 ? Reshape(b, Shape{k, 1}) : Reshape(Moveaxis(b, {b_axis}, {0}), Shape{k, -1});
    return Reshape(Dot2D(a2, b2), out_shape);
}

Array Matmul(const Array& a, const Array& b) {
    if (a.ndim() == 0 || b.ndim() == 0) throw DimensionError{"matmul: input operands must not be 0-dimensional"};
    if (a.ndim() <= 2 && b.ndim() <= 2) return Dot(a, b);
    // Promote 1-D operands to matrices, broadcast the batch axes, then multiply batch by batch.
    Array a3 = a.ndim() == 1 ? ExpandDims(a, 0) : a;
    Array b3 = b.ndim() == 1 ? ExpandDims(b, 1) : b;
    CheckAligned(a3, b3, a3.ndim() - 1, b3.ndim() - 2);
    Shape a_batch(a3.shape().begin(), a3.shape().end() - 2);
    Shape b_batch(b3.shape().begin(), b3.shape().end() - 2);
    Shape batch = BroadcastShapes(a_batch, b_batch);
    int64_t m = a3.shape()[a3.ndim() - 2];
    int64_t k = a3.shape()[a3.ndim() - 1];
    int64_t n = b3.shape()[b3.ndim() - 1];
    Shape a_full = batch;
    a_full.push_back(m);
    a_full.push_back(k);
    Shape b_full = batch;
    b_full.push_back(k);
    b_full.push_back(n);
    int64_t count = batch.GetTotalSize();
    Array af = Reshape(BroadcastTo(a3, a_full), Shape{count, m, k});
    Array bf = Reshape(BroadcastTo(b3, b_full), Shape{count, k, n});
    std::vector<Array> products;
    for (int64_t i = 0; i < count; ++i) products.push_back(Dot(At(af, {i}), At(bf, {i})));
    Shape out_shape = batch;
    if (a.ndim() > 1) out_shape.push_back(m);
    if (b.ndim() > 1) out_shape.push_back(n);
    if (count == 0) return Zeros(out_shape, PromoteTypes(a.dtype(), b.dtype()), a.device());
    return Reshape(Stack(products, 0), out_shape);
}

}  // namespace chainerx
