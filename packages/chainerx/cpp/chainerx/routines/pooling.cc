#include "chainerx/routines/pooling.h"

#include <cstdint>

#include "chainerx/backend.h"
#include "chainerx/backward_builder.h"
#include "chainerx/error.h"
#include "chainerx/kernels/pooling.h"
#include "chainerx/routines/connection.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/util.h"

namespace chainerx {
namespace {

void CheckEntries(const char* name, const char* what, const Dims& dims, const Array& x, int64_t min) {
    int nsp = x.ndim() - 2;
    if (dims.size() != nsp) {
        throw DimensionError{name,      ": ",    what,        " ",
                             dims,      " has ", dims.size(), " entries, but x of shape ",
                             x.shape(), " has ", nsp,         " spatial axes"};
    }
    for (int64_t v : dims) {
        if (v < min) {
            throw DimensionError{name, ": every entry of ", what, " must be at least ", min, ", got ", what, " ", dims};
        }
    }
}

// The output shape of a pooling, after checking its arguments (name is the routine, for messages).
Shape PooledShape(const char* name, const Array& x, const Dims& ksize, const Dims& stride, const Dims& pad,
                  bool cover_all) {
    internal::CheckFloating(x, name);
    if (x.ndim() < 3) {
        throw DimensionError{name, ": x must have a batch, a channel and at least one spatial axis, got shape ",
                             x.shape()};
    }
    CheckEntries(name, "ksize", ksize, x, 1);
    CheckEntries(name, "stride", stride, x, 1);
    CheckEntries(name, "pad", pad, x, 0);
    Shape out{x.shape()[0], x.shape()[1]};
    for (int d = 0; d < ksize.size(); ++d) {
        int64_t extent = x.shape()[d + 2];
        int64_t size = internal::GetConvOutDim(extent, ksize[d], stride[d], pad[d], cover_all);
        if (size < 1) {
            throw DimensionError{name,      ": the window of size ",
                                 ksize[d],  " does not fit spatial axis ",
                                 d,         " of extent ",
                                 extent,    " with padding ",
                                 pad[d],    " (x shape ",
                                 x.shape(), "); use a smaller ksize or more padding"};
        }
        out.push_back(size);
    }
    return out;
}

// Max pooling's backward and double backward are a scatter and a gather by the indices of the
// maxima; each is the other's transpose, so they differentiate each other any number of times.
Array MaxPoolGather(const Array& ggx, const Array& indices);

Array MaxPoolScatter(const Array& gy, const Array& indices, const Shape& x_shape) {
    Array gx = Empty(x_shape, gy.dtype(), gy.device());
    gy.device().backend().CallKernel<MaxPoolGradKernel>(gy, indices, gx);
    BackwardBuilder bb{"max_pool_grad", {gy}, {gx}};
    if (bb) {
        bb.Define([indices](BackwardContext& ctx) { ctx.input_grad() = MaxPoolGather(ctx.output_grad(), indices); });
    }
    return gx;
}

Array MaxPoolGather(const Array& ggx, const Array& indices) {
    Array ggy = Empty(indices.shape(), ggx.dtype(), ggx.device());
    ggx.device().backend().CallKernel<MaxPoolGradGradKernel>(ggx, indices, ggy);
    BackwardBuilder bb{"max_pool_grad_grad", {ggx}, {ggy}};
    if (bb) {
        Shape x_shape = ggx.shape();
        bb.Define([indices, x_shape](BackwardContext& ctx) {
            ctx.input_grad() = MaxPoolScatter(ctx.output_grad(), indices, x_shape);
        });
    }
    return ggy;
}

// Average pooling is linear: its backward is its transpose, whose backward is average pooling again.
struct AveragePoolWindows {
    Dims ksize;
    Dims stride;
    Dims pad;
    AveragePoolPadMode pad_mode;
};

Array AveragePoolTranspose(const Array& gy, const AveragePoolWindows& w, const Shape& x_shape);

Array AveragePoolForward(const Array& x, const AveragePoolWindows& w, const Shape& out_shape) {
    Array out = Empty(out_shape, x.dtype(), x.device());
    x.device().backend().CallKernel<AveragePoolKernel>(x, w.ksize, w.stride, w.pad, w.pad_mode, out);
    BackwardBuilder bb{"average_pool", {x}, {out}};
    if (bb) {
        Shape x_shape = x.shape();
        bb.Define([w, x_shape](BackwardContext& ctx) {
            ctx.input_grad() = AveragePoolTranspose(ctx.output_grad(), w, x_shape);
        });
    }
    return out;
}

Array AveragePoolTranspose(const Array& gy, const AveragePoolWindows& w, const Shape& x_shape) {
    Array gx = Empty(x_shape, gy.dtype(), gy.device());
    gy.device().backend().CallKernel<AveragePoolGradKernel>(gy, w.ksize, w.stride, w.pad, w.pad_mode, gx);
    BackwardBuilder bb{"average_pool_grad", {gy}, {gx}};
    if (bb) {
        Shape out_shape = gy.shape();
        bb.Define([w, out_shape](BackwardContext& ctx) {
            ctx.input_grad() = AveragePoolForward(ctx.output_grad(), w, out_shape);
        });
    }
    return gx;
}

}  // namespace

Array MaxPool(const Array& x, const Dims& ksize, const Dims& stride, const Dims& pad, bool cover_all) {
    Shape out_shape = PooledShape("max_pool", x, ksize, stride, pad, cover_all);
    Array out = Empty(out_shape, x.dtype(), x.device());
    Array indices = Empty(out_shape, Dtype::kInt64, x.device());
    x.device().backend().CallKernel<MaxPoolKernel>(x, ksize, stride, pad, out, indices);
    BackwardBuilder bb{"max_pool", {x}, {out}};
    if (bb) {
        Shape x_shape = x.shape();
        bb.Define([indices, x_shape](BackwardContext& ctx) {
            ctx.input_grad() = MaxPoolScatter(ctx.output_grad(), indices, x_shape);
        });
    }
    return out;
}

Array AveragePool(const Array& x, const Dims& ksize, const Dims& stride, const Dims& pad, AveragePoolPadMode pad_mode) {
    Shape out_shape = PooledShape("average_pool", x, ksize, stride, pad, false);
    return AveragePoolForward(x, AveragePoolWindows{ksize, stride, pad, pad_mode}, out_shape);
}

}  // namespace chainerx
