"""Layer-wise adaptive rate scaling (LARS) of the gradients."""

from __future__ import annotations

import math

from chainer.optimizer_hooks._common import grad_scale, real_number, squared_norm


class GradientLARS:
    """Optimizer/UpdateRule hook function for layer-wise adaptive rate scaling.

    You et al., *Large Batch Training of Convolutional Networks* (2017). Each parameter's
    gradient, with weight decay added, is scaled by its local rate::

        local_rate = ||param|| / (eps + ||grad|| + weight_decay * ||param||)
        grad = local_rate * (grad + weight_decay * param)

    The rate is applied only when both norms exceed ``threshold`` (a zero norm would make it
    0 or undefined); otherwise only the weight decay is added.

    Args:
        threshold: Both norms must exceed it for the gradient to be rescaled.
        weight_decay: Coefficient of the weight decay.
        eps: Small value for numerical stability.

    Attributes:
        threshold (float), weight_decay (float), eps (float): As given.
        timing (str): ``'pre'`` (default: before the update) or ``'post'``.
    """

    name = "GradientLARS"
    call_for_each_param = True
    timing = "pre"

    def __init__(
        self, threshold: float = 1e-2, weight_decay: float = 0.0, eps: float = 1e-9
    ) -> None:
        self.threshold = real_number("GradientLARS", "threshold", threshold)
        self.weight_decay = real_number("GradientLARS", "weight_decay", weight_decay)
        self.eps = real_number("GradientLARS", "eps", eps)

    def __call__(self, rule, param) -> None:
        array, grad = param.array, param.grad
        if array is None or grad is None:
            return
        scale = grad_scale(param)
        param_norm = math.sqrt(squared_norm(array))
        grad_norm = math.sqrt(squared_norm(grad)) / scale
        rate = 1.0
        if param_norm > self.threshold and grad_norm > self.threshold:
            rate = param_norm / (self.eps + grad_norm + self.weight_decay * param_norm)
        with param.device.create_context():
            if self.weight_decay != 0:
                grad += (self.weight_decay * scale) * array
            if rate != 1.0:
                grad *= rate
