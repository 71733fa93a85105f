"""Nesterov's accelerated gradient, in the form that evaluates the gradient at the parameter.

With ``v = momentum * v - lr * grad``, the look-ahead update
``param += momentum * v - lr * grad`` rewritten on the new velocity is
``param += momentum**2 * v - (1 + momentum) * lr * grad`` (Sutskever et al., 2013; Bengio et
al., *Advances in optimizing recurrent networks*, 2013).
"""

from __future__ import annotations

import numpy

from chainer.optimizers._elementwise import chainerx_kernel_for
from chainer.optimizers._momentum import VelocityMethod, VelocityRule


def _nesterov_kernel(param, grad, v, scratch, lr, momentum):
    v *= momentum
    numpy.multiply(grad, lr, out=scratch)
    v -= scratch
    scratch *= 1 + momentum
    param -= scratch
    numpy.multiply(v, momentum * momentum, out=scratch)
    param += scratch


@chainerx_kernel_for(_nesterov_kernel)
def _nesterov_chainerx(param, grad, v, lr, momentum):
    step = grad * lr
    v *= momentum
    v -= step
    param -= step * (1 + momentum)
    param += v * (momentum * momentum)


class NesterovAGRule(VelocityRule):
    """Update rule of Nesterov's accelerated gradient.

    ``v = momentum * v - lr * grad; param += momentum**2 * v - (1 + momentum) * lr * grad``.

    Args:
        parent_hyperparam: Hyperparameters to fall back to (the optimizer's).
        lr: Learning rate for this parameter only.
        momentum: Momentum coefficient for this parameter only.
    """

    _cpu_kernel = staticmethod(_nesterov_kernel)
    _gpu_body = """
    v = momentum * v - lr * grad;
    param += momentum * momentum * v - (1 + momentum) * lr * grad;
    """
    _gpu_name = "nesterov_ag_update"


class NesterovAG(VelocityMethod):
    """Nesterov's accelerated gradient.

    Args:
        lr: Learning rate.
        momentum: Exponential decay rate of the velocity.
    """

    _rule_class = NesterovAGRule
