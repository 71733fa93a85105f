"""AdaGrad: per-element learning rates from the sum of squared gradients."""

from __future__ import annotations

import numpy

from chainer.backends import cuda
from chainer.optimizer import GradientMethod, Hyperparameter, HyperparameterProxy
from chainer.optimizers._elementwise import (
    ElementwiseRule,
    KernelCall,
    chainerx_kernel_for,
    check_eps_fits,
    default_hyperparam,
    gpu_compute_types,
    set_hyperparams,
    step_by_root_mean_square,
    step_by_root_mean_square_chainerx,
)

_default_hyperparam = default_hyperparam(lr=0.001, eps=1e-8)


def _ada_grad_kernel(param, grad, h, scratch, lr, eps):
    numpy.multiply(grad, grad, out=scratch)
    h += scratch
    step_by_root_mean_square(param, grad, h, scratch, lr, eps)


@chainerx_kernel_for(_ada_grad_kernel)
def _ada_grad_chainerx(param, grad, h, lr, eps):
    h += grad * grad
    step_by_root_mean_square_chainerx(param, grad, h, lr, eps)


class AdaGradRule(ElementwiseRule):
    """Update rule of AdaGrad: ``h += grad**2; param -= lr * grad / (sqrt(h) + eps)``.

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
        self.state["h"] = param.xp.zeros_like(param.array)

    def _kernel_call(self) -> KernelCall:
        hp = self._read_hyperparam()
        return _ada_grad_kernel, ("h",), 1, (hp.lr, hp.eps)

    def update_core_gpu(self, param) -> None:
        hp = self.hyperparam
        compute, types = gpu_compute_types(param.dtype)
        check_eps_fits(type(self).__name__, compute, hp.eps)
        cuda.elementwise(
            "T grad, {P} lr, {P} eps".format(**types),
            "T param, T h",
            """
            {C} g = grad;
            {C} hh = ({C})h + g * g;
            h = hh;
            param = ({C})param - lr * g / (sqrt(hh) + eps);
            """.format(**types),
            "ada_grad_update",
        )(param.grad, compute(hp.lr), compute(hp.eps), param.array, self.state["h"])


class AdaGrad(GradientMethod):
    """AdaGrad optimizer (Duchi et al., 2011).

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
        set_hyperparams(self.hyperparam, "AdaGrad", lr=lr, eps=eps)

    def create_update_rule(self) -> AdaGradRule:
        return AdaGradRule(self.hyperparam)
