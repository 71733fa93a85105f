"""Zeiler's ADADELTA: step sizes from running averages of squared gradients and steps."""

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

_default_hyperparam = default_hyperparam(rho=0.95, eps=1e-6)


def _ada_delta_kernel(param, grad, msg, msdx, dx, scratch, rho, eps):
    decay_toward_square(msg, grad, scratch, rho)
    numpy.add(msdx, eps, out=dx)
    numpy.add(msg, eps, out=scratch)
    dx /= scratch
    numpy.sqrt(dx, out=dx)
    dx *= grad
    decay_toward_square(msdx, dx, scratch, rho)
    param -= dx


@chainerx_kernel_for(_ada_delta_kernel)
def _ada_delta_chainerx(param, grad, msg, msdx, rho, eps):
    import chainerx

    decay_toward_square_chainerx(msg, grad, rho)
    dx = chainerx.sqrt((msdx + eps) / (msg + eps)) * grad
    decay_toward_square_chainerx(msdx, dx, rho)
    param -= dx


class AdaDeltaRule(ElementwiseRule):
    """Update rule of ADADELTA.

    ``msg = rho * msg + (1 - rho) * grad**2``,
    ``dx = sqrt((msdx + eps) / (msg + eps)) * grad``,
    ``msdx = rho * msdx + (1 - rho) * dx**2``, ``param -= dx``.

    Args:
        parent_hyperparam: Hyperparameters to fall back to (the optimizer's).
        rho: Decay rate of the running averages, for this parameter only.
        eps: Small value for numerical stability, for this parameter only.
    """

    def __init__(
        self,
        parent_hyperparam: Hyperparameter | None = None,
        rho: float | None = None,
        eps: float | None = None,
    ) -> None:
        super().__init__(parent_hyperparam, _default_hyperparam, rho=rho, eps=eps)

    def init_state(self, param) -> None:
        self.state["msg"] = param.xp.zeros_like(param.array)
        self.state["msdx"] = param.xp.zeros_like(param.array)

    def _kernel_call(self) -> KernelCall:
        hp = self._read_hyperparam()
        return _ada_delta_kernel, ("msg", "msdx"), 2, (hp.rho, hp.eps)

    def update_core_gpu(self, param) -> None:
        hp = self.hyperparam
        cuda.elementwise(
            "T grad, T one_minus_rho, T eps",
            "T param, T msg, T msdx",
            """
            msg += one_minus_rho * (grad * grad - msg);
            T dx = sqrt((msdx + eps) / (msg + eps)) * grad;
            msdx += one_minus_rho * (dx * dx - msdx);
            param -= dx;
            """,
            "ada_delta_update",
        )(
            param.grad,
            1 - hp.rho,
            hp.eps,
            param.array,
            self.state["msg"],
            self.state["msdx"],
        )


class AdaDelta(GradientMethod):
    """Zeiler's ADADELTA (*ADADELTA: An Adaptive Learning Rate Method*, 2012).

    Args:
        rho: Exponential decay rate of the running averages.
        eps: Small value for numerical stability.
    """

    rho = HyperparameterProxy("rho")
    eps = HyperparameterProxy("eps")

    def __init__(
        self, rho: float = _default_hyperparam.rho, eps: float = _default_hyperparam.eps
    ) -> None:
        super().__init__()
        set_hyperparams(self.hyperparam, "AdaDelta", rho=rho, eps=eps)

    def create_update_rule(self) -> AdaDeltaRule:
        return AdaDeltaRule(self.hyperparam)
