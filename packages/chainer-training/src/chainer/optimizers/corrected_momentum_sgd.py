"""Momentum SGD with the learning rate outside the velocity (momentum correction).

With ``v = momentum * v - grad; param += lr * v``, changing ``lr`` during training takes effect
on the whole accumulated velocity at once, which is the momentum correction of Goyal et al.,
*Accurate, Large Minibatch SGD* (section 3), needed when the rate is warmed up or decayed.
"""

from __future__ import annotations

import numpy

from chainer.backends import cuda
from chainer.optimizer import GradientMethod, Hyperparameter, HyperparameterProxy
from chainer.optimizers._elementwise import (
    ElementwiseRule,
    default_hyperparam,
    set_hyperparams,
    update_in_chunks,
)

_default_hyperparam = default_hyperparam(lr=0.01, momentum=0.9)


def _corrected_momentum_kernel(param, grad, v, scratch, lr, momentum):
    v *= momentum
    v -= grad
    numpy.multiply(v, lr, out=scratch)
    param += scratch


class CorrectedMomentumSGDRule(ElementwiseRule):
    """Update rule of corrected momentum SGD: ``v = momentum * v - grad; param += lr * v``.

    Args:
        parent_hyperparam: Hyperparameters to fall back to (the optimizer's).
        lr: Learning rate for this parameter only.
        momentum: Momentum coefficient for this parameter only.
    """

    def __init__(
        self,
        parent_hyperparam: Hyperparameter | None = None,
        lr: float | None = None,
        momentum: float | None = None,
    ) -> None:
        super().__init__(parent_hyperparam, _default_hyperparam, lr=lr, momentum=momentum)

    def init_state(self, param) -> None:
        self.state["v"] = param.xp.zeros_like(param.array)

    def update_core_cpu(self, param) -> None:
        hp = self.hyperparam
        update_in_chunks(
            _corrected_momentum_kernel,
            param.array,
            param.grad,
            (self.state["v"],),
            1,
            hp.lr,
            hp.momentum,
        )

    def update_core_gpu(self, param) -> None:
        hp = self.hyperparam
        cuda.elementwise(
            "T grad, T lr, T momentum",
            "T param, T v",
            "v = momentum * v - grad; param += lr * v;",
            "corrected_momentum_sgd_update",
        )(param.grad, hp.lr, hp.momentum, param.array, self.state["v"])


class CorrectedMomentumSGD(GradientMethod):
    """Momentum SGD optimizer with momentum correction.

    Args:
        lr: Learning rate.
        momentum: Exponential decay rate of the velocity.
    """

    lr = HyperparameterProxy("lr")
    momentum = HyperparameterProxy("momentum")

    def __init__(
        self, lr: float = _default_hyperparam.lr, momentum: float = _default_hyperparam.momentum
    ) -> None:
        super().__init__()
        set_hyperparams(self.hyperparam, "CorrectedMomentumSGD", lr=lr, momentum=momentum)

    def create_update_rule(self) -> CorrectedMomentumSGDRule:
        return CorrectedMomentumSGDRule(self.hyperparam)
