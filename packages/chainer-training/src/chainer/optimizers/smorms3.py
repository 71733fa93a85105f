"""Simon Funk's SMORMS3: RMSprop with a per-element memory length instead of a fixed decay."""

from __future__ import annotations

import numpy

from chainer.backends import cuda
from chainer.optimizer import GradientMethod, Hyperparameter, HyperparameterProxy
from chainer.optimizers._elementwise import (
    ElementwiseRule,
    KernelCall,
    chainerx_kernel_for,
    default_hyperparam,
    set_hyperparams,
)

_default_hyperparam = default_hyperparam(lr=0.001, eps=1e-16)


def _smorms3_kernel(param, grad, mem, g, g2, rate, x, step, lr, eps):
    # rate = 1 / (mem + 1) is how much of the new gradient enters the averages.
    numpy.add(mem, 1, out=rate)
    numpy.reciprocal(rate, out=rate)
    numpy.subtract(grad, g, out=x)
    x *= rate
    g += x
    numpy.multiply(grad, grad, out=x)
    x -= g2
    x *= rate
    g2 += x
    # x = g**2 / (g2 + eps): near 1 when the gradient is consistent, near 0 when noisy.
    numpy.add(g2, eps, out=rate)
    numpy.multiply(g, g, out=x)
    x /= rate
    numpy.sqrt(g2, out=rate)
    rate += eps
    numpy.minimum(x, lr, out=step)
    step *= grad
    step /= rate
    param -= step
    numpy.subtract(1, x, out=x)
    mem *= x
    mem += 1


@chainerx_kernel_for(_smorms3_kernel)
def _smorms3_chainerx(param, grad, mem, g, g2, lr, eps):
    import chainerx

    rate = 1 / (mem + 1)
    g += (grad - g) * rate
    g2 += (grad * grad - g2) * rate
    x = g * g / (g2 + eps)
    param -= chainerx.minimum(x, lr) * grad / (chainerx.sqrt(g2) + eps)
    mem *= 1 - x
    mem += 1


class SMORMS3Rule(ElementwiseRule):
    """Update rule of SMORMS3.

    With ``r = 1 / (mem + 1)``: ``g = (1 - r) * g + r * grad``,
    ``g2 = (1 - r) * g2 + r * grad**2``, ``x = g**2 / (g2 + eps)``,
    ``param -= grad * min(lr, x) / (sqrt(g2) + eps)``, ``mem = 1 + mem * (1 - x)``.

    Args:
        parent_hyperparam: Hyperparameters to fall back to (the optimizer's).
        lr: Learning rate for this parameter only.
        eps: Small value for numerical stability, for this parameter only.
    """

    def __init__(
        self,
        parent_hyperparam: Hyperparameter | None = None,
        lr: float | None = None,
        eps: float | None = None,
    ) -> None:
        super().__init__(parent_hyperparam, _default_hyperparam, lr=lr, eps=eps)

    def init_state(self, param) -> None:
        xp = param.xp
        self.state["mem"] = xp.ones_like(param.array)
        self.state["g"] = xp.zeros_like(param.array)
        self.state["g2"] = xp.zeros_like(param.array)

    def _kernel_call(self) -> KernelCall:
        hp = self._read_hyperparam()
        return _smorms3_kernel, ("mem", "g", "g2"), 3, (hp.lr, hp.eps)

    def update_core_gpu(self, param) -> None:
        hp = self.hyperparam
        cuda.elementwise(
            "T grad, T lr, T eps",
            "T param, T mem, T g, T g2",
            """
            T r = 1 / (mem + 1);
            g = (1 - r) * g + r * grad;
            g2 = (1 - r) * g2 + r * grad * grad;
            T x = g * g / (g2 + eps);
            param -= grad * min(lr, x) / (sqrt(g2) + eps);
            mem = 1 + mem * (1 - x);
            """,
            "smorms3_update",
        )(
            param.grad,
            hp.lr,
            hp.eps,
            param.array,
            self.state["mem"],
            self.state["g"],
            self.state["g2"],
        )


class SMORMS3(GradientMethod):
    """Simon Funk's SMORMS3 optimizer.

    Args:
        lr: Learning rate.
        eps: Small value for numerical stability.
    """

    lr = HyperparameterProxy("lr")
    eps = HyperparameterProxy("eps")

    def __init__(
        self, lr: float = _default_hyperparam.lr, eps: float = _default_hyperparam.eps
    ) -> None:
        super().__init__()
        set_hyperparams(self.hyperparam, "SMORMS3", lr=lr, eps=eps)

    def create_update_rule(self) -> SMORMS3Rule:
        return SMORMS3Rule(self.hyperparam)
