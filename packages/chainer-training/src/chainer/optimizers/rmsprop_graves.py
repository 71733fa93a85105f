"""Alex Graves's RMSprop: momentum on steps normalised by a running gradient variance."""

from __future__ import annotations

import numpy

from chainer.backends import cuda
from chainer.optimizer import GradientMethod, Hyperparameter, HyperparameterProxy
from chainer.optimizers._elementwise import (
    ElementwiseRule,
    KernelCall,
    chainerx_kernel_for,
    decay_toward_square,
    decay_toward_square_chainerx,
    default_hyperparam,
    set_hyperparams,
)

_default_hyperparam = default_hyperparam(lr=1e-4, alpha=0.95, momentum=0.9, eps=1e-4)


def _graves_kernel(param, grad, n, g, delta, scratch, lr, alpha, momentum, eps):
    decay_toward_square(n, grad, scratch, alpha)
    g *= alpha
    numpy.multiply(grad, 1 - alpha, out=scratch)
    g += scratch
    numpy.multiply(g, g, out=scratch)
    numpy.subtract(n, scratch, out=scratch)
    scratch += eps
    numpy.sqrt(scratch, out=scratch)
    numpy.divide(grad, scratch, out=scratch)
    scratch *= lr
    delta *= momentum
    delta -= scratch
    param += delta


@chainerx_kernel_for(_graves_kernel)
def _graves_chainerx(param, grad, n, g, delta, lr, alpha, momentum, eps):
    import chainerx

    decay_toward_square_chainerx(n, grad, alpha)
    g *= alpha
    g += grad * (1 - alpha)
    delta *= momentum
    delta -= grad / chainerx.sqrt(n - g * g + eps) * lr
    param += delta


class RMSpropGravesRule(ElementwiseRule):
    """Update rule of Graves's RMSprop.

    ``n = alpha * n + (1 - alpha) * grad**2``, ``g = alpha * g + (1 - alpha) * grad``,
    ``delta = momentum * delta - lr * grad / sqrt(n - g**2 + eps)``, ``param += delta``.

    Args:
        parent_hyperparam: Hyperparameters to fall back to (the optimizer's).
        lr: Learning rate for this parameter only.
        alpha: Decay rate of the running moments, for this parameter only.
        momentum: Momentum coefficient, for this parameter only.
        eps: Small value for numerical stability, for this parameter only.
    """

    def __init__(
        self,
        parent_hyperparam: Hyperparameter | None = None,
        lr: float | None = None,
        alpha: float | None = None,
        momentum: float | None = None,
        eps: float | None = None,
    ) -> None:
        super().__init__(
            parent_hyperparam,
            _default_hyperparam,
            lr=lr,
            alpha=alpha,
            momentum=momentum,
            eps=eps,
        )

    def init_state(self, param) -> None:
        xp = param.xp
        self.state["n"] = xp.zeros_like(param.array)
        self.state["g"] = xp.zeros_like(param.array)
        self.state["delta"] = xp.zeros_like(param.array)

    def _kernel_call(self) -> KernelCall:
        hp = self._read_hyperparam()
        scalars = (hp.lr, hp.alpha, hp.momentum, hp.eps)
        return _graves_kernel, ("n", "g", "delta"), 1, scalars

    def update_core_gpu(self, param) -> None:
        hp = self.hyperparam
        cuda.elementwise(
            "T grad, T lr, T alpha, T momentum, T eps",
            "T param, T n, T g, T delta",
            """
            n = alpha * n + (1 - alpha) * grad * grad;
            g = alpha * g + (1 - alpha) * grad;
            delta = momentum * delta - lr * grad / sqrt(n - g * g + eps);
            param += delta;
            """,
            "rmsprop_graves_update",
        )(
            param.grad,
            hp.lr,
            hp.alpha,
            hp.momentum,
            hp.eps,
            param.array,
            self.state["n"],
            self.state["g"],
            self.state["delta"],
        )


class RMSpropGraves(GradientMethod):
    """Alex Graves's RMSprop (*Generating Sequences With Recurrent Neural Networks*, 2013).

    Args:
        lr: Learning rate.
        alpha: Exponential decay rate of the first and second order moments.
        momentum: Exponential decay rate of the step.
        eps: Small value for numerical stability.
    """

    lr = HyperparameterProxy("lr")
    alpha = HyperparameterProxy("alpha")
    momentum = HyperparameterProxy("momentum")
    eps = HyperparameterProxy("eps")

    def __init__(
        self,
        lr: float = _default_hyperparam.lr,
        alpha: float = _default_hyperparam.alpha,
        momentum: float = _default_hyperparam.momentum,
        eps: float = _default_hyperparam.eps,
    ) -> None:
        super().__init__()
        set_hyperparams(
            self.hyperparam, "RMSpropGraves", lr=lr, alpha=alpha, momentum=momentum, eps=eps
        )

    def create_update_rule(self) -> RMSpropGravesRule:
        return RMSpropGravesRule(self.hyperparam)
