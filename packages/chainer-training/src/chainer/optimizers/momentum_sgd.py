"""Momentum SGD (the classical heavy-ball form, with the learning rate inside the velocity)."""

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


def _momentum_kernel(param, grad, v, scratch, lr, momentum):
    v *= momentum
    numpy.multiply(grad, lr, out=scratch)
    v -= scratch
    param += v


class MomentumSGDRule(ElementwiseRule):
    """Update rule of momentum SGD: ``v = momentum * v - lr * grad; param += v``.

    The state holds the velocity ``v``.

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
            _momentum_kernel, param.array, param.grad, (self.state["v"],), 1, hp.lr, hp.momentum
        )

    def update_core_gpu(self, param) -> None:
        hp = self.hyperparam
        cuda.elementwise(
            "T grad, T lr, T momentum",
            "T param, T v",
            "v = momentum * v - lr * grad; param += v;",
            "momentum_sgd_update",
        )(param.grad, hp.lr, hp.momentum, param.array, self.state["v"])


class MomentumSGD(GradientMethod):
    """Momentum SGD optimizer.

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
        set_hyperparams(self.hyperparam, "MomentumSGD", lr=lr, momentum=momentum)

    def create_update_rule(self) -> MomentumSGDRule:
        return MomentumSGDRule(self.hyperparam)
