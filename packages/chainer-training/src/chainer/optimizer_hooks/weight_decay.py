"""L2 regularization as a gradient hook."""

from __future__ import annotations

from chainer.optimizer_hooks._common import grad_scale, real_number


class WeightDecay:
    """Optimizer/UpdateRule hook function for weight decay regularization.

    Adds ``rate * param`` to each gradient, the gradient of ``rate / 2 * ||param||**2``.
    Register it on an optimizer (``optimizer.add_hook(WeightDecay(5e-4))``) to decay every
    parameter, or on one update rule (``param.update_rule.add_hook(...)``) for that one.

    Args:
        rate: Coefficient of the decay.

    Attributes:
        rate (float): Coefficient of the decay.
        timing (str): ``'pre'`` (default: before the update) or ``'post'``.
    """

    name = "WeightDecay"
    call_for_each_param = True
    timing = "pre"

    def __init__(self, rate: float) -> None:
        self.rate = real_number("WeightDecay", "rate", rate)

    def __call__(self, rule, param) -> None:
        array, grad = param.array, param.grad
        if array is None or grad is None:
            return
        with param.device.create_context():
            grad += (self.rate * grad_scale(param)) * array
