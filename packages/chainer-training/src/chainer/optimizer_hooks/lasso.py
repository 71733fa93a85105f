"""L1 regularization as a gradient hook."""

from __future__ import annotations

from chainer.optimizer_hooks._common import grad_scale, real_number


class Lasso:
    """Optimizer/UpdateRule hook function for Lasso regularization.

    Adds ``rate * sign(param)`` to each gradient, the (sub)gradient of ``rate * ||param||_1``.

    Args:
        rate: Coefficient of the regularization.

    Attributes:
        rate (float): Coefficient of the regularization.
        timing (str): ``'pre'`` (default: before the update) or ``'post'``.
    """

    name = "Lasso"
    call_for_each_param = True
    timing = "pre"

    def __init__(self, rate: float) -> None:
        self.rate = real_number("Lasso", "rate", rate)

    def __call__(self, rule, param) -> None:
        array, grad = param.array, param.grad
        if array is None or grad is None:
            return
        with param.device.create_context():
            grad += (self.rate * grad_scale(param)) * param.xp.sign(array)
