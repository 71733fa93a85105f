"""RMSprop: gradient steps divided by a running root mean square of the gradients."""

from __future__ import annotations

from chainer.backends import cuda
from chainer.optimizer import GradientMethod, Hyperparameter, HyperparameterProxy
from chainer.optimizers._elementwise import (
    ElementwiseRule,
    KernelCall,
    chainerx_kernel_for,
    check_eps_fits,
    decay_toward_square,
    decay_toward_square_chainerx,
    default_hyperparam,
    set_flags,
    set_hyperparams,
    step_by_root_mean_square,
    step_by_root_mean_square_chainerx,
)

_default_hyperparam = default_hyperparam(lr=0.01, alpha=0.99, eps=1e-8, eps_inside_sqrt=False)


def _rmsprop_kernel(param, grad, ms, scratch, lr, alpha, eps, eps_inside_sqrt):
    decay_toward_square(ms, grad, scratch, alpha)
    step_by_root_mean_square(param, grad, ms, scratch, lr, eps, eps_inside_sqrt)


@chainerx_kernel_for(_rmsprop_kernel)
def _rmsprop_chainerx(param, grad, ms, lr, alpha, eps, eps_inside_sqrt):
    decay_toward_square_chainerx(ms, grad, alpha)
    step_by_root_mean_square_chainerx(param, grad, ms, lr, eps, eps_inside_sqrt)


class RMSpropRule(ElementwiseRule):
    """Update rule of RMSprop.

    ``ms = alpha * ms + (1 - alpha) * grad**2``, then ``param -= lr * grad / (sqrt(ms) + eps)``
    or, with ``eps_inside_sqrt``, ``param -= lr * grad / sqrt(ms + eps)``.

    Args:
        parent_hyperparam: Hyperparameters to fall back to (the optimizer's).
        lr: Learning rate for this parameter only.
        alpha: Decay rate of the mean square, for this parameter only.
        eps: Small value for numerical stability, for this parameter only.
        eps_inside_sqrt: Where ``eps`` is added, for this parameter only.
    """

    def __init__(
        self,
        parent_hyperparam: Hyperparameter | None = None,
        lr: float | None = None,
        alpha: float | None = None,
        eps: float | None = None,
        eps_inside_sqrt: bool | None = None,
    ) -> None:
        super().__init__(
            parent_hyperparam,
            _default_hyperparam,
            lr=lr,
            alpha=alpha,
            eps=eps,
            eps_inside_sqrt=eps_inside_sqrt,
        )

    def init_state(self, param) -> None:
        self.state["ms"] = param.xp.zeros_like(param.array)

    def _kernel_call(self) -> KernelCall:
        hp = self._read_hyperparam()
        return _rmsprop_kernel, ("ms",), 1, (hp.lr, hp.alpha, hp.eps, hp.eps_inside_sqrt)

    def update_core_gpu(self, param) -> None:
        hp = self.hyperparam
        check_eps_fits(type(self).__name__, param.dtype, hp.eps)
        denominator = "sqrt(ms + eps)" if hp.eps_inside_sqrt else "(sqrt(ms) + eps)"
        cuda.elementwise(
            "T grad, T lr, T one_minus_alpha, T eps",
            "T param, T ms",
            f"ms += one_minus_alpha * (grad * grad - ms); param -= lr * grad / {denominator};",
            "rmsprop_update_eps_inside" if hp.eps_inside_sqrt else "rmsprop_update",
        )(param.grad, hp.lr, 1 - hp.alpha, hp.eps, param.array, self.state["ms"])


class RMSprop(GradientMethod):
    """RMSprop optimizer (Tieleman and Hinton, 2012).

    Args:
        lr: Learning rate.
        alpha: Exponential decay rate of the mean square of gradients.
        eps: Small value for numerical stability.
        eps_inside_sqrt: Add ``eps`` under the square root (as TensorFlow does) instead of
            after it.
    """

    lr = HyperparameterProxy("lr")
    alpha = HyperparameterProxy("alpha")
    eps = HyperparameterProxy("eps")
    eps_inside_sqrt = HyperparameterProxy("eps_inside_sqrt")

    def __init__(
        self,
        lr: float = _default_hyperparam.lr,
        alpha: float = _default_hyperparam.alpha,
        eps: float = _default_hyperparam.eps,
        eps_inside_sqrt: bool = _default_hyperparam.eps_inside_sqrt,
    ) -> None:
        super().__init__()
        set_hyperparams(self.hyperparam, "RMSprop", lr=lr, alpha=alpha, eps=eps)
        set_flags(self.hyperparam, "RMSprop", eps_inside_sqrt=eps_inside_sqrt)

    def create_update_rule(self) -> RMSpropRule:
        return RMSpropRule(self.hyperparam)
