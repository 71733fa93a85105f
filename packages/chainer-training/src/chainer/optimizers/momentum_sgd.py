"""Momentum SGD (the classical heavy-ball form, with the learning rate inside the velocity)."""

from __future__ import annotations

import numpy

from chainer.optimizers._chunks import streaming_kernel
from chainer.optimizers._elementwise import chainerx_kernel_for
from chainer.optimizers._momentum import VelocityMethod, VelocityRule


@streaming_kernel
def _momentum_kernel(param, grad, v, scratch, lr, momentum):
    v *= momentum
    numpy.multiply(grad, lr, out=scratch)
    v -= scratch
    param += v


@chainerx_kernel_for(_momentum_kernel)
def _momentum_chainerx(param, grad, v, lr, momentum):
    v *= momentum
    v -= grad * lr
    param += v


class MomentumSGDRule(VelocityRule):
    """Update rule of momentum SGD: ``v = momentum * v - lr * grad; param += v``.

    The state holds the velocity ``v``.

    Args:
        parent_hyperparam: Hyperparameters to fall back to (the optimizer's).
        lr: Learning rate for this parameter only.
        momentum: Momentum coefficient for this parameter only.
    """

    _cpu_kernel = staticmethod(_momentum_kernel)
    _gpu_body = "v = momentum * v - lr * grad; param += v;"
    _gpu_name = "momentum_sgd_update"


class MomentumSGD(VelocityMethod):
    """Momentum SGD optimizer.

    Args:
        lr: Learning rate.
        momentum: Exponential decay rate of the velocity.
    """

    _rule_class = MomentumSGDRule
