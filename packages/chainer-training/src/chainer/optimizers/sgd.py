"""Vanilla stochastic gradient descent."""

from __future__ import annotations

import numpy

from chainer.backends import cuda
from chainer.optimizer import GradientMethod, Hyperparameter, HyperparameterProxy
from chainer.optimizers._chunks import streaming_kernel
from chainer.optimizers._elementwise import (
    ElementwiseRule,
    KernelCall,
    chainerx_kernel_for,
    default_hyperparam,
    set_hyperparams,
)

_default_hyperparam = default_hyperparam(lr=0.01)


@streaming_kernel
def _sgd_kernel(param, grad, scratch, lr):
    numpy.multiply(grad, lr, out=scratch)
    param -= scratch


@chainerx_kernel_for(_sgd_kernel)
def _sgd_chainerx(param, grad, lr):
    param -= grad * lr


class SGDRule(ElementwiseRule):
    """Update rule of vanilla SGD: ``param -= lr * grad``.

    Args:
        parent_hyperparam: Hyperparameters to fall back to (the optimizer's).
        lr: Learning rate for this parameter only.
    """

    def __init__(
        self, parent_hyperparam: Hyperparameter | None = None, lr: float | None = None
    ) -> None:
        super().__init__(parent_hyperparam, _default_hyperparam, lr=lr)

    def _kernel_call(self) -> KernelCall:
        return _sgd_kernel, (), 1, (self._read_hyperparam().lr,)

    def update_core_gpu(self, param) -> None:
        cuda.elementwise("T grad, T lr", "T param", "param -= lr * grad", "sgd_update")(
            param.grad, self.hyperparam.lr, param.array
        )


class SGD(GradientMethod):
    """Vanilla stochastic gradient descent.

    Args:
        lr: Learning rate.
    """

    lr = HyperparameterProxy("lr")

    def __init__(self, lr: float = _default_hyperparam.lr) -> None:
        super().__init__()
        set_hyperparams(self.hyperparam, "SGD", lr=lr)

    def create_update_rule(self) -> SGDRule:
        return SGDRule(self.hyperparam)
