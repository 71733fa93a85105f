"""What the momentum SGD family shares: ``lr``, ``momentum`` and a velocity ``v`` per parameter.

:class:`MomentumSGD`, :class:`NesterovAG` and :class:`CorrectedMomentumSGD` differ only in the
formula that updates ``v`` and the parameter; the hyperparameters, their defaults, the state and
the way the formula is run are the same, so they live here once.
"""

from __future__ import annotations

from collections.abc import Callable

from chainer.backends import cuda
from chainer.optimizer import GradientMethod, Hyperparameter, HyperparameterProxy
from chainer.optimizers._elementwise import (
    ElementwiseRule,
    KernelCall,
    default_hyperparam,
    set_hyperparams,
)

_default_hyperparam = default_hyperparam(lr=0.01, momentum=0.9)


class VelocityRule(ElementwiseRule):
    """An update rule whose state is a velocity ``v`` driven by ``lr`` and ``momentum``.

    Subclasses set :attr:`_cpu_kernel`, a staticmethod
    ``kernel(param, grad, v, scratch, lr, momentum)`` run by
    :func:`~chainer.optimizers._chunks.update_in_chunks`, and :attr:`_gpu_body` and
    :attr:`_gpu_name`, the CuPy kernel over inputs ``grad, lr, momentum`` and outputs ``param, v``.

    Args:
        parent_hyperparam: Hyperparameters to fall back to (the optimizer's).
        lr: Learning rate for this parameter only.
        momentum: Momentum coefficient for this parameter only.
    """

    _cpu_kernel: Callable[..., None]
    _gpu_body: str
    _gpu_name: str

    def __init__(
        self,
        parent_hyperparam: Hyperparameter | None = None,
        lr: float | None = None,
        momentum: float | None = None,
    ) -> None:
        super().__init__(parent_hyperparam, _default_hyperparam, lr=lr, momentum=momentum)

    def init_state(self, param) -> None:
        self.state["v"] = param.xp.zeros_like(param.array)

    def _kernel_call(self) -> KernelCall:
        hp = self._read_hyperparam()
        return self._cpu_kernel, ("v",), 1, (hp.lr, hp.momentum)

    def update_core_gpu(self, param) -> None:
        hp = self.hyperparam
        cuda.elementwise(
            "T grad, T lr, T momentum", "T param, T v", self._gpu_body, self._gpu_name
        )(param.grad, hp.lr, hp.momentum, param.array, self.state["v"])


class VelocityMethod(GradientMethod):
    """An optimizer of the momentum SGD family; subclasses set :attr:`_rule_class`.

    Args:
        lr: Learning rate.
        momentum: Exponential decay rate of the velocity.
    """

    _rule_class: type[VelocityRule]

    lr = HyperparameterProxy("lr")
    momentum = HyperparameterProxy("momentum")

    def __init__(
        self, lr: float = _default_hyperparam.lr, momentum: float = _default_hyperparam.momentum
    ) -> None:
        super().__init__()
        set_hyperparams(self.hyperparam, type(self).__name__, lr=lr, momentum=momentum)

    def create_update_rule(self) -> VelocityRule:
        return self._rule_class(self.hyperparam)
