#include "chainerx/routines/loss.h"

#include "chainerx/backend.h"
#include "chainerx/backward_builder.h"
#include "chainerx/error.h"
#include "chainerx/kernels/loss.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/indexing.h"
#include "chainerx/routines/logic.h"
#include "chainerx/routines/manipulation.h"
#include "chainerx/routines/math.h"
#include "chainerx/routines/reduction.h"
#include "chainerx/routines/util.h"

namespace chainerx {
namespace {

// x1 - x2 of two floating arrays.
Array Difference(const Array& x1, const Array& x2, const char* name) {
    internal::CheckFloating(x1, name);
    internal::CheckFloating(x2, name);
    return Subtract(x1, x2);
}

// Integer labels as int64; the -1 of the ignore label needs a signed dtype.
Array LabelsAsInt64(const Array& t, const char* name) {
    if (!IsIntegral(t.dtype())) throw DtypeError{name, ": labels must have an integer dtype, got ", t.dtype()};
    return AsType(t, Dtype::kInt64, false);
}

// 1 where the label is not the ignore label -1, 0 where it is.
Array NotIgnoredMask(const Array& labels, Dtype dtype) { return AsType(NotEqual(labels, Scalar{-1}), dtype); }

// The gradient of SoftmaxCrossEntropy from the fused kernel: gx = gy * (softmax(x) - onehot(t)) on
// rows not ignored. Its own backward is composed of differentiable routines, for any order.
Array SoftmaxCrossEntropyGrad(const Array& x, const Array& labels, const Array& lse, const Array& gy) {
    Array gx = Empty(x.shape(), x.dtype(), x.device());
    x.device().backend().CallKernel<SoftmaxCrossEntropyGradKernel>(x, labels, lse, gy, gx);
    BackwardBuilder bb{"softmax_cross_entropy_grad", {x, gy}, {gx}};
    if (bb) {
        bb.Define([x, labels, gy](BackwardContext& ctx) {
            const Array& ggx = ctx.output_grad();
            Array p = Softmax(x, Axes{1});
            Array mask = NotIgnoredMask(labels, x.dtype());
            if (ctx.is_input_grad_required(0)) {
                // The vector-Jacobian product of softmax with the row weights gy * mask.
                Array g = Multiply(ExpandDims(Multiply(gy, mask), 1), ggx);
                ctx.input_grad(0) = Multiply(p, Subtract(g, Sum(Multiply(p, g), Axes{1}, true)));
            }
            if (ctx.is_input_grad_required(1)) {
                Array classes = Arange(0, x.shape()[1], 1, Dtype::kInt64, x.device());
                Array onehot = AsType(Equal(ExpandDims(labels, 1), classes), x.dtype());
                ctx.input_grad(1) = Multiply(Sum(Multiply(ggx, Subtract(p, onehot)), Axes{1}), mask);
            }
        });
    }
    return gx;
}

}  // namespace

Array AbsoluteError(const Array& x1, const Array& x2) { return Absolute(Difference(x1, x2, "absolute_error")); }

Array SquaredError(const Array& x1, const Array& x2) { return Square(Difference(x1, x2, "squared_error")); }

Array HuberLoss(const Array& x1, const Array& x2, double delta) {
    Array d = Difference(x1, x2, "huber_loss");
    Array abs_d = Absolute(d);
    Array quadratic = Multiply(Square(d), Scalar{0.5});
    Array linear = Multiply(Subtract(abs_d, Scalar{0.5 * delta}), Scalar{delta});
    return Where(LessEqual(abs_d.AsGradStopped(), Scalar{delta}), quadratic, linear);
}

Array GaussianKlDivergence(const Array& mean, const Array& ln_var, LossReduction reduction) {
    internal::CheckFloating(mean, "gaussian_kl_divergence");
    internal::CheckFloating(ln_var, "gaussian_kl_divergence");
    Array sum_terms = Subtract(Add(Square(mean), Exp(ln_var)), ln_var);
    Array loss = Multiply(Subtract(sum_terms, Scalar{1}), Scalar{0.5});
    switch (reduction) {
        case LossReduction::kSum:
            return Sum(loss);
        case LossReduction::kMean:
            return Mean(loss);
        case LossReduction::kNo:
            break;
    }
    return loss;
}

Array SigmoidCrossEntropy(const Array& x1, const Array& x2) {
    internal::CheckFloating(x1, "sigmoid_cross_entropy");
    Array labels = LabelsAsInt64(x2, "sigmoid_cross_entropy");
    CheckEqualDevices(x1.device(), x2.device());
    if (x1.shape() != x2.shape()) {
        throw DimensionError{"sigmoid_cross_entropy: x1 of shape ", x1.shape(), " and labels x2 of shape ", x2.shape(),
                             " must have the same shape"};
    }
    Array t = AsType(labels, x1.dtype());
    Array mask = NotIgnoredMask(labels, x1.dtype());
    // relu(x) - x t + log(1 + exp(-|x|)) is exact for logits of any magnitude; one graph node,
    // so the gradient is also right at x = 0, where |x| has none.
    Array x = x1.AsGradStopped();
    Array loss = Multiply(Add(Subtract(Relu(x), Multiply(x, t)), Log1p(Exp(Negative(Absolute(x))))), mask);
    BackwardBuilder bb{"sigmoid_cross_entropy", {x1}, {loss}};
    if (bb) {
        bb.Define([x1, t, mask](BackwardContext& ctx) {
            ctx.input_grad() = Multiply(ctx.output_grad(), Multiply(Subtract(Sigmoid(x1), t), mask));
        });
    }
    return loss;
}

Array SoftmaxCrossEntropy(const Array& x1, const Array& x2) {
    internal::CheckFloating(x1, "softmax_cross_entropy");
    Array labels = LabelsAsInt64(x2, "softmax_cross_entropy");
    CheckEqualDevices(x1.device(), x2.device());
    if (x1.ndim() != 2) {
        throw DimensionError{"softmax_cross_entropy: x1 must be 2-D logits (samples, classes), got shape ", x1.shape()};
    }
    if (x2.ndim() != 1 || x2.shape()[0] != x1.shape()[0]) {
        throw DimensionError{"softmax_cross_entropy: labels x2 must have shape (",
                             x1.shape()[0],
                             ",) to match x1 of shape ",
                             x1.shape(),
                             ", got ",
                             x2.shape()};
    }
    if (x1.shape()[1] == 0) throw DimensionError{"softmax_cross_entropy: x1 of shape ", x1.shape(), " has no classes"};
    int64_t n = x1.shape()[0];
    Array loss = Empty(Shape{n}, x1.dtype(), x1.device());
    // The row's logsumexp, kept in the compute type for the backward kernel.
    Array lse = Empty(Shape{n}, x1.dtype() == Dtype::kFloat16 ? Dtype::kFloat32 : x1.dtype(), x1.device());
    x1.device().backend().CallKernel<SoftmaxCrossEntropyKernel>(x1, labels, loss, lse);
    BackwardBuilder bb{"softmax_cross_entropy", {x1}, {loss}};
    if (bb) {
        bb.Define([x1, labels, lse](BackwardContext& ctx) {
            ctx.input_grad() = SoftmaxCrossEntropyGrad(x1, labels, lse, ctx.output_grad());
        });
    }
    return loss;
}

}  // namespace chainerx
