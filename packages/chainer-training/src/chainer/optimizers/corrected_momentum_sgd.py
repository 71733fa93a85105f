"""Momentum SGD with the learning rate outside the velocity (momentum correction).

With ``v = momentum * v - grad; param += lr * v``, changing ``lr`` during training takes effect
on the whole accumulated velocity at once, which is the momentum correction of Goyal et al.,
*Accurate, Large Minibatch SGD* (section 3), needed when the rate is warmed up or decayed.
"""

from __future__ import annotations

import numpy

from chainer.optimizers._chunks import streaming_kernel
from chainer.optimizers._elementwise import chainerx_kernel_for
from chainer.optimizers._momentum import VelocityMethod, VelocityRule


@streaming_kernel
def _corrected_momentum_kernel(param, grad, v, scratch, lr, momentum):
    v *= momentum
    v -= grad
    numpy.multiply(v, lr, out=scratch)
    param += scratch


@chainerx_kernel_for(_corrected_momentum_kernel)
def _corrected_momentum_chainerx(param, grad, v, lr, momentum):
    v *= momentum
    v -= grad
    param += v * lr


class CorrectedMomentumSGDRule(VelocityRule):
    """Update rule of corrected momentum SGD: ``v = momentum * v - grad; param += lr * v``.

    Args:
        parent_hyperparam: Hyperparameters to fall back to (the optimizer's).
        lr: Learning rate for this parameter only.
        momentum: Momentum coefficient for this parameter only.
    """

    _cpu_kernel = staticmethod(_corrected_momentum_kernel)
    _gpu_body = "v = momentum * v - grad; param += lr * v;"
    _gpu_name = "corrected_momentum_sgd_update"


class CorrectedMomentumSGD(VelocityMethod):
    """Momentum SGD optimizer with momentum correction.

    Args:
        lr: Learning rate.
        momentum: Exponential decay rate of the velocity.
    """

    _rule_class = CorrectedMomentumSGDRule
