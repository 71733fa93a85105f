#include "chainerx/routines/normalization.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <utility>

#include "chainerx/backend.h"
#include "chainerx/backward_builder.h"
#include "chainerx/error.h"
#include "chainerx/kernels/creation.h"
#include "chainerx/kernels/normalization.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/manipulation.h"
#include "chainerx/routines/math.h"
#include "chainerx/routines/reduction.h"
#include "chainerx/routines/util.h"

namespace chainerx {
namespace {

// The axes one batch normalization reduces over and the shapes of its per-channel arrays.
struct ChannelLayout {
    Axes axes;        // sorted
    Shape kept;       // x's shape without the axes: gamma, beta and the statistics
    Shape broadcast;  // x's shape with the axes as 1: per-channel arrays that broadcast against x
};

ChannelLayout MakeLayout(const char* name, const Array& x, const std::optional<Axes>& axis) {
    internal::CheckFloating(x, name);
    ChannelLayout layout;
    // As in v7, the default reduces over the batch axis only.
    layout.axes = NormalizeAxes(axis.value_or(Axes{0}), x.ndim());
    for (int d = 0; d < x.ndim(); ++d) {
        bool reduced = std::find(layout.axes.begin(), layout.axes.end(), d) != layout.axes.end();
        if (!reduced) layout.kept.push_back(x.shape()[d]);
        layout.broadcast.push_back(reduced ? 1 : x.shape()[d]);
    }
    return layout;
}

// A per-channel argument as an array of x's dtype (converted, differentiably, if it has another
// floating dtype) and of the kept shape, after checking it against x.
Array ChannelArg(const char* name, const char* arg, const Array& x, const Array& a, const ChannelLayout& layout) {
    CheckEqualDevices(x.device(), a.device());
    if (!IsFloating(a.dtype())) throw DtypeError{name, ": ", arg, " must have a floating dtype, got ", a.dtype()};
    if (a.shape() == layout.kept) return internal::CastIfNeeded(a, x.dtype());
    // Only size-1 axes go, so this is a view (running statistics are updated through it).
    if (a.shape() == layout.broadcast) return internal::CastIfNeeded(Reshape(a, layout.kept), x.dtype());
    throw DimensionError{name,        ": ",           arg,       " must have shape ",
                         layout.kept, " (x's shape ", x.shape(), " without axes ",
                         layout.axes, "), got ",      a.shape()};
}

// The backward of batch_norm_grad, i.e. batch_norm's second derivatives, written with differentiable
// routines; the statistics are recomputed from x so that every higher order is exact too.
// With xhat = (x - mean) * inv_std, scale = gamma * inv_std and P(v) = v - mean(v) - xhat * mean(v * xhat)
// (means over the reduced axes), the first derivatives are gx = scale * P(gy), ggamma = sum(gy * xhat)
// and gbeta = sum(gy); given their gradients ggx, gggamma and ggbeta:
//   d/dgy    = scale * P(ggx) + gggamma * xhat + ggbeta
//   d/dgamma = sum(ggx * inv_std * P(gy))
//   d/dx     = inv_std * (P(u) - xhat * mean(ggx * gx)),
//              u = gggamma * gy - scale * (mean(gy * xhat) * ggx + mean(ggx * xhat) * gy)
void BatchNormGradBackward(BackwardContext& ctx, const Array& x, const Array& gamma, const Array& gy,
                           const ChannelLayout& layout, double eps) {
    auto mean = [&layout](const Array& a) { return Mean(a, layout.axes, true); };
    auto per_channel = [&layout](const Array& a) { return Reshape(a, layout.broadcast); };
    Array xc = Subtract(x, mean(x));
    Array inv_std = Reciprocal(Sqrt(Add(mean(Square(xc)), Scalar{eps})));
    Array xhat = Multiply(xc, inv_std);
    Array scale = Multiply(per_channel(gamma), inv_std);
    auto project = [&](const Array& v) {
        return Subtract(Subtract(v, mean(v)), Multiply(xhat, mean(Multiply(v, xhat))));
    };
    const Array& ggx = ctx.output_grad(0);
    Array gy_projected = project(gy);
    if (ctx.is_input_grad_required(0)) {
        Array u = Subtract(
                Multiply(per_channel(ctx.output_grad(1)), gy),
                Multiply(scale, Add(Multiply(mean(Multiply(gy, xhat)), ggx), Multiply(mean(Multiply(ggx, xhat)), gy))));
        Array gx = Multiply(scale, gy_projected);
        ctx.input_grad(0) = Multiply(inv_std, Subtract(project(u), Multiply(xhat, mean(Multiply(ggx, gx)))));
    }
    if (ctx.is_input_grad_required(1)) {
        ctx.input_grad(1) = Sum(Multiply(Multiply(ggx, inv_std), gy_projected), layout.axes);
    }
    if (ctx.is_input_grad_required(2)) {
        ctx.input_grad(2) = Add(Add(Multiply(scale, project(ggx)), Multiply(per_channel(ctx.output_grad(1)), xhat)),
                                per_channel(ctx.output_grad(2)));
    }
}

// batch_norm's first derivatives (gx, ggamma, gbeta) by the native kernel, as one op that is itself
// differentiable (for double backprop).
std::array<Array, 3> BatchNormGrad(const Array& x, const Array& gamma, const Array& gy, const Array& batch_mean,
                                   const Array& batch_inv_std, const ChannelLayout& layout, double eps) {
    Array gx = Empty(x.shape(), x.dtype(), x.device());
    Array ggamma = Empty(layout.kept, x.dtype(), x.device());
    Array gbeta = Empty(layout.kept, x.dtype(), x.device());
    x.device().backend().CallKernel<BatchNormGradKernel>(x, gamma, gy, batch_mean, batch_inv_std, layout.axes, gx,
                                                         ggamma, gbeta);
    BackwardBuilder bb{"batch_norm_grad", {x, gamma, gy}, {gx, ggamma, gbeta}};
    if (bb) {
        bb.Define([x, gamma, gy, layout, eps](BackwardContext& ctx) {
            BatchNormGradBackward(ctx, x, gamma, gy, layout, eps);
        });
    }
    return {gx, ggamma, gbeta};
}

}  // namespace

Array BatchNorm(const Array& x, const Array& gamma_in, const Array& beta_in, const Array& running_mean_in,
                const Array& running_var_in, double eps, double decay, const std::optional<Axes>& axis) {
    constexpr const char* kName = "batch_norm";
    ChannelLayout layout = MakeLayout(kName, x, axis);
    Array gamma = ChannelArg(kName, "gamma", x, gamma_in, layout);
    Array beta = ChannelArg(kName, "beta", x, beta_in, layout);
    Array running_mean = ChannelArg(kName, "running_mean", x, running_mean_in, layout);
    Array running_var = ChannelArg(kName, "running_var", x, running_var_in, layout);
    internal::CheckNoGraphForInplace(running_mean_in, "batch_norm (update of running_mean)");
    internal::CheckNoGraphForInplace(running_var_in, "batch_norm (update of running_var)");
    // float16 statistics would lose the precision the backward pass needs.
    Dtype stat_dtype = x.dtype() == Dtype::kFloat16 ? Dtype::kFloat32 : x.dtype();
    Array out = Empty(x.shape(), x.dtype(), x.device());
    Array batch_mean = Empty(layout.kept, stat_dtype, x.device());
    Array batch_inv_std = Empty(layout.kept, stat_dtype, x.device());
    x.device().backend().CallKernel<BatchNormKernel>(x, gamma, beta, running_mean, running_var, eps, decay, layout.axes,
                                                     out, batch_mean, batch_inv_std);
    // Running statistics of another dtype were updated in a converted copy: store it back.
    for (const auto& [updated, given] :
         {std::pair{running_mean, running_mean_in}, std::pair{running_var, running_var_in}}) {
        if (updated.dtype() != given.dtype()) {
            x.device().backend().CallKernel<CopyKernel>(updated, Reshape(given, layout.kept));
        }
    }
    BackwardBuilder bb{kName, {x, gamma, beta}, {out}};
    if (bb) {
        bb.Define([x, gamma, batch_mean, batch_inv_std, layout, eps](BackwardContext& ctx) {
            std::array<Array, 3> grads =
                    BatchNormGrad(x, gamma, ctx.output_grad(), batch_mean, batch_inv_std, layout, eps);
            for (size_t i = 0; i < grads.size(); ++i) {
                if (ctx.is_input_grad_required(i)) ctx.input_grad(i) = grads[i];
            }
        });
    }
    return out;
}

Array FixedBatchNorm(const Array& x, const Array& gamma_in, const Array& beta_in, const Array& mean_in,
                     const Array& var_in, double eps, const std::optional<Axes>& axis) {
    constexpr const char* kName = "fixed_batch_norm";
    ChannelLayout layout = MakeLayout(kName, x, axis);
    Array gamma = ChannelArg(kName, "gamma", x, gamma_in, layout);
    Array beta = ChannelArg(kName, "beta", x, beta_in, layout);
    Array mean = ChannelArg(kName, "mean", x, mean_in, layout);
    Array var = ChannelArg(kName, "var", x, var_in, layout);
    Array out = Empty(x.shape(), x.dtype(), x.device());
    x.device().backend().CallKernel<FixedBatchNormKernel>(x, gamma, beta, mean, var, eps, layout.axes, out);
    BackwardBuilder bb{kName, {x, gamma, beta, mean, var}, {out}};
    if (bb) {
        // out is affine in x per channel: out = x * scale + (beta - mean * scale), scale = gamma * inv_std.
        bb.Define([x, gamma, mean, var, layout, eps](BackwardContext& ctx) {
            const Array& gy = ctx.output_grad();
            auto per_channel = [&layout](const Array& a) { return Reshape(a, layout.broadcast); };
            Array inv_std = Reciprocal(Sqrt(Add(var, Scalar{eps})));
            Array scale = Multiply(gamma, inv_std);
            if (ctx.is_input_grad_required(0)) ctx.input_grad(0) = Multiply(gy, per_channel(scale));
            if (ctx.is_input_grad_required(2) || ctx.is_input_grad_required(3)) {
                Array gy_sum = Sum(gy, layout.axes);
                if (ctx.is_input_grad_required(2)) ctx.input_grad(2) = gy_sum;
                if (ctx.is_input_grad_required(3)) ctx.input_grad(3) = Negative(Multiply(gy_sum, scale));
            }
            if (ctx.is_input_grad_required(1) || ctx.is_input_grad_required(4)) {
                Array xhat = Multiply(Subtract(x, per_channel(mean)), per_channel(inv_std));
                Array gy_xhat_sum = Sum(Multiply(gy, xhat), layout.axes);
                if (ctx.is_input_grad_required(1)) ctx.input_grad(1) = gy_xhat_sum;
                // d inv_std / d var = -inv_std^3 / 2.
                if (ctx.is_input_grad_required(4)) {
                    ctx.input_grad(4) = Multiply(Multiply(gy_xhat_sum, Multiply(scale, inv_std)), Scalar{-0.5});
                }
            }
        });
    }
    return out;
}

}  // namespace chainerx
