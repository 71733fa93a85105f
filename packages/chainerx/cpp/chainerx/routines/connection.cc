#include "chainerx/routines/connection.h"

#include <functional>
#include <tuple>
#include <vector>

#include "chainerx/backend.h"
#include "chainerx/backward_builder.h"
#include "chainerx/error.h"
#include "chainerx/kernels/connection.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/linalg.h"
#include "chainerx/routines/manipulation.h"
#include "chainerx/routines/math.h"
#include "chainerx/routines/reduction.h"
#include "chainerx/routines/util.h"

namespace chainerx {
namespace {

int64_t FloorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

Dims SpatialDims(const Array& a) { return Dims(a.shape().begin() + 2, a.shape().end()); }

Shape BatchShape(int64_t batch, int64_t channels, const Dims& spatial) {
    Shape shape{batch, channels};
    for (int64_t d : spatial) shape.push_back(d);
    return shape;
}

std::vector<Array> Inputs(const Array& x, const Array& w, const std::optional<Array>& b) {
    std::vector<Array> inputs{x, w};
    if (b.has_value()) inputs.push_back(*b);
    return inputs;
}

// The gradient of a bias added along axis 1: spatial axes first, then the batch, so both
// reductions read memory in order, without a transposing copy.
Array BiasGrad(const Array& gy) {
    Shape planes{gy.shape()[0], gy.shape()[1], Shape(gy.shape().begin() + 2, gy.shape().end()).GetTotalSize()};
    return Sum(Sum(Reshape(gy, planes), Axes{2}), Axes{0});
}

// The three ops below take every output size explicitly and are each other's gradients, so
// derivatives of any order stay within them. Their arrays share one dtype (float32 or float64).

Array ConvTransposeOp(const Array& x, const Array& w, const std::optional<Array>& b, const Dims& stride,
                      const Dims& pad, const Dims& out_dims);
Array ConvWeightGradOp(const Array& x, const Array& gy, const Dims& kernel, const Dims& stride, const Dims& pad);

Array ConvOp(const Array& x, const Array& w, const std::optional<Array>& b, const Dims& stride, const Dims& pad,
             const Dims& out_dims) {
    Array out = Empty(BatchShape(x.shape()[0], w.shape()[0], out_dims), x.dtype(), x.device());
    x.device().backend().CallKernel<ConvKernel>(x, w, b, stride, pad, out);
    BackwardBuilder bb{"conv", Inputs(x, w, b), {out}};
    if (bb) {
        bb.Define([x, w, has_bias = b.has_value(), stride, pad](BackwardContext& ctx) {
            const Array& gy = ctx.output_grad();
            if (ctx.is_input_grad_required(0)) {
                ctx.input_grad(0) = ConvTransposeOp(gy, w, std::nullopt, stride, pad, SpatialDims(x));
            }
            if (ctx.is_input_grad_required(1)) ctx.input_grad(1) = ConvWeightGradOp(x, gy, SpatialDims(w), stride, pad);
            if (has_bias && ctx.is_input_grad_required(2)) ctx.input_grad(2) = BiasGrad(gy);
        });
    }
    return out;
}

Array ConvTransposeOp(const Array& x, const Array& w, const std::optional<Array>& b, const Dims& stride,
                      const Dims& pad, const Dims& out_dims) {
    Array out = Empty(BatchShape(x.shape()[0], w.shape()[1], out_dims), x.dtype(), x.device());
    x.device().backend().CallKernel<ConvTransposeKernel>(x, w, b, stride, pad, out);
    BackwardBuilder bb{"conv_transpose", Inputs(x, w, b), {out}};
    if (bb) {
        bb.Define([x, w, has_bias = b.has_value(), stride, pad](BackwardContext& ctx) {
            const Array& gy = ctx.output_grad();
            if (ctx.is_input_grad_required(0)) {
                ctx.input_grad(0) = ConvOp(gy, w, std::nullopt, stride, pad, SpatialDims(x));
            }
            if (ctx.is_input_grad_required(1)) ctx.input_grad(1) = ConvWeightGradOp(gy, x, SpatialDims(w), stride, pad);
            if (has_bias && ctx.is_input_grad_required(2)) ctx.input_grad(2) = BiasGrad(gy);
        });
    }
    return out;
}

// The gradient of ConvOp(x, w) in w, given the output gradient gy. Bilinear in (x, gy).
Array ConvWeightGradOp(const Array& x, const Array& gy, const Dims& kernel, const Dims& stride, const Dims& pad) {
    Array gw = Empty(BatchShape(gy.shape()[1], x.shape()[1], kernel), x.dtype(), x.device());
    x.device().backend().CallKernel<ConvWeightGradKernel>(x, gy, stride, pad, gw);
    BackwardBuilder bb{"conv_weight_grad", {x, gy}, {gw}};
    if (bb) {
        bb.Define([x, gy, stride, pad](BackwardContext& ctx) {
            const Array& ggw = ctx.output_grad();
            if (ctx.is_input_grad_required(0)) {
                ctx.input_grad(0) = ConvTransposeOp(gy, ggw, std::nullopt, stride, pad, SpatialDims(x));
            }
            if (ctx.is_input_grad_required(1)) {
                ctx.input_grad(1) = ConvOp(x, ggw, std::nullopt, stride, pad, SpatialDims(gy));
            }
        });
    }
    return gw;
}

// Checks shared by conv and conv_transpose. x's channels must match axis w_in_axis of w and the
// bias axis 1 - w_in_axis.
void CheckArgs(const char* name, const Array& x, const Array& w, const std::optional<Array>& b, int w_in_axis,
               const Dims& stride, const Dims& pad) {
    CheckEqualDevices(x.device(), w.device());
    if (b.has_value()) CheckEqualDevices(x.device(), b->device());
    if (x.ndim() < 2) throw DimensionError{name, ": x must have a batch and a channel axis, got shape ", x.shape()};
    if (w.ndim() != x.ndim()) {
        throw DimensionError{name, ": w must have as many dimensions as x, got x ", x.shape(), " and w ", w.shape()};
    }
    if (w.shape()[w_in_axis] != x.shape()[1]) {
        throw DimensionError{name,      ": x ",       x.shape(),
                             " has ",   x.shape()[1], " channels but w ",
                             w.shape(), " takes ",    w.shape()[w_in_axis],
                             " (axis ", w_in_axis,    ")"};
    }
    int64_t out_channels = w.shape()[1 - w_in_axis];
    if (b.has_value() && (b->ndim() != 1 || b->shape()[0] != out_channels)) {
        throw DimensionError{name,      ": b must have shape (", out_channels, ",) to match w ", w.shape(), ", got ",
                             b->shape()};
    }
    int spatial = x.ndim() - 2;
    for (const auto& [what, dims, low] : {std::tuple{"stride", &stride, 1}, std::tuple{"pad", &pad, 0}}) {
        if (dims->size() != spatial) {
            throw DimensionError{name,      ": ",     what, " must have one value per spatial axis of x ",
                                 x.shape(), ", got ", *dims};
        }
        for (int64_t v : *dims) {
            if (v < low) throw DimensionError{name, ": ", what, " values must be at least ", low, ", got ", *dims};
        }
    }
    for (int i = 0; i < spatial; ++i) {
        if (w.shape()[i + 2] < 1) throw DimensionError{name, ": kernel sizes must be positive, got w ", w.shape()};
    }
}

// Runs op on x, w and b converted to the compute dtype of their common dtype (float16 computed in
// float32, integers and bool in float64) and returns the result in the common dtype.
Array WithComputeDtype(const Array& x, const Array& w, const std::optional<Array>& b,
                       const std::function<Array(const Array&, const Array&, const std::optional<Array>&)>& op) {
    Dtype dtype = PromoteTypes(x.dtype(), w.dtype());
    if (b.has_value()) dtype = PromoteTypes(dtype, b->dtype());
    Dtype compute = internal::GetProductSumComputeDtype(dtype);
    std::optional<Array> bc = b.has_value() ? std::optional<Array>{internal::CastIfNeeded(*b, compute)} : std::nullopt;
    Array out = op(internal::CastIfNeeded(x, compute), internal::CastIfNeeded(w, compute), bc);
    return internal::FromProductSumComputeDtype(out, dtype);
}

// A convolution of x without spatial axes, (batch, in_channels), is a product over the channels;
// w_in_out is w arranged as (in_channels, out_channels).
Array ChannelProduct(const Array& x, const Array& w_in_out, const std::optional<Array>& b) {
    Array y = Dot(x, w_in_out);
    return b.has_value() ? Add(y, *b) : y;
}

[[noreturn]] void ThrowEmptyOutput(const char* name, int axis, int64_t out_dim, int64_t in_dim, int64_t kernel,
                                   int64_t stride, int64_t pad) {
    throw DimensionError{name,    ": the output would have size ",
                         out_dim, " along spatial axis ",
                         axis,    " (input ",
                         in_dim,  ", kernel ",
                         kernel,  ", stride ",
                         stride,  ", pad ",
                         pad,     ")"};
}

}  // namespace

namespace internal {

int64_t GetConvOutDim(int64_t in_dim, int64_t kernel_size, int64_t stride, int64_t pad, bool cover_all) {
    int64_t span = in_dim + 2 * pad - kernel_size + (cover_all ? stride - 1 : 0);
    return FloorDiv(span, stride) + 1;
}

int64_t GetConvTransposeOutDim(int64_t in_dim, int64_t kernel_size, int64_t stride, int64_t pad, bool cover_all) {
    return stride * (in_dim - 1) + kernel_size - 2 * pad - (cover_all ? stride - 1 : 0);
}

}  // namespace internal

Array Conv(const Array& x, const Array& w, const std::optional<Array>& b, const Dims& stride, const Dims& pad,
           bool cover_all) {
    CheckArgs("conv", x, w, b, 1, stride, pad);
    Dims out_dims;
    for (int i = 0; i < x.ndim() - 2; ++i) {
        int64_t in = x.shape()[i + 2];
        int64_t k = w.shape()[i + 2];
        int64_t out = internal::GetConvOutDim(in, k, stride[i], pad[i], cover_all);
        if (out < 1) ThrowEmptyOutput("conv", i, out, in, k, stride[i], pad[i]);
        out_dims.push_back(out);
    }
    return WithComputeDtype(x, w, b, [&](const Array& xc, const Array& wc, const std::optional<Array>& bc) {
        return out_dims.empty() ? ChannelProduct(xc, Transpose(wc), bc) : ConvOp(xc, wc, bc, stride, pad, out_dims);
    });
}

Array ConvTranspose(const Array& x, const Array& w, const std::optional<Array>& b, const Dims& stride, const Dims& pad,
                    const std::optional<Dims>& outsize) {
    CheckArgs("conv_transpose", x, w, b, 0, stride, pad);
    int spatial = x.ndim() - 2;
    if (outsize.has_value() && outsize->size() != spatial) {
        throw DimensionError{"conv_transpose: outsize must have one value per spatial axis of x ", x.shape(), ", got ",
                             *outsize};
    }
    Dims out_dims;
    for (int i = 0; i < spatial; ++i) {
        int64_t in = x.shape()[i + 2];
        int64_t k = w.shape()[i + 2];
        if (!outsize.has_value()) {
            int64_t out = internal::GetConvTransposeOutDim(in, k, stride[i], pad[i], false);
            if (out < 1) ThrowEmptyOutput("conv_transpose", i, out, in, k, stride[i], pad[i]);
            out_dims.push_back(out);
            continue;
        }
        // A valid outsize is one that a convolution, with or without cover_all, maps back to in.
        int64_t out = (*outsize)[i];
        int64_t lower = internal::GetConvOutDim(out, k, stride[i], pad[i], false);
        int64_t upper = internal::GetConvOutDim(out, k, stride[i], pad[i], true);
        if (out < 1 || in < lower || in > upper) {
            throw DimensionError{"conv_transpose: outsize ",
                                 *outsize,
                                 " does not fit x ",
                                 x.shape(),
                                 " along spatial axis ",
                                 i,
                                 ": a convolution of size ",
                                 out,
                                 " with kernel ",
                                 k,
                                 ", stride ",
                                 stride[i],
                                 " and pad ",
                                 pad[i],
                                 " gives ",
                                 lower,
                                 " (",
                                 upper,
                                 " with cover_all), not ",
                                 in};
        }
        out_dims.push_back(out);
    }
    return WithComputeDtype(x, w, b, [&](const Array& xc, const Array& wc, const std::optional<Array>& bc) {
        return out_dims.empty() ? ChannelProduct(xc, wc, bc) : ConvTransposeOp(xc, wc, bc, stride, pad, out_dims);
    });
}

}  // namespace chainerx
