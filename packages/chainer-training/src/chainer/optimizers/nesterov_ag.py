"""Nesterov's accelerated gradient, in the form that evaluates the gradient at the parameter.

With ``v = momentum * v - lr * grad``, the look-ahead update
``param += momentum * v - lr * grad`` rewritten on the new velocity is
``param += momentum**2 * v - (1 + momentum) * lr * grad`` (Sutskever et al., 2013; Bengio et
al., *Advances in optimizing recurrent networks*, 2013).
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


def _nesterov_kernel(param, grad, v, scratch, lr, momentum):
    v *= momentum
    numpy.multiply(grad, lr, out=scratch)
    v -= scratch
    scratch *= 1 + momentum
    param -= scratch
    numpy.multiply(v, momentum * momentum, out=scratch)
    param += scratch


class NesterovAGRule(ElementwiseRule):
    """Update rule of Nesterov's accelerated gradient.

    ``v = momentum * v - lr * grad; param += momentum**2 * v - (1 + momentum) * lr * grad``.

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
            _nesterov_kernel, param.array, param.grad, (self.state["v"],), 1, hp.lr, hp.momentum
        )

    def update_core_gpu(self, param) -> None:
        hp = self.hyperparam
        cuda.elementwise(
            "T grad, T lr, T momentum",
            "T param, T v",
            """
            v = momentum * v - lr * grad;
            param += momentum * momentum * v - (1 + momentum) * lr * grad;
            """,
            "nesterov_ag_update",
        )(param.grad, hp.lr, hp.momentum, param.array, self.state["v"])


class NesterovAG(GradientMethod):
    """Nesterov's accelerated gradient.

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
        set_hyperparams(self.hyperparam, "NesterovAG", lr=lr, momentum=momentum)

    def create_update_rule(self) -> NesterovAGRule:
        return NesterovAGRule(self.hyperparam)
