"""Elementwise gradient clipping."""

from __future__ import annotations

import numpy

from chainer.backends import cuda
from chainer.optimizer_hooks._common import grad_scale, real_number


class GradientHardClipping:
    """Optimizer/UpdateRule hook function for gradient clipping.

    Clips every gradient element into ``[lower_bound, upper_bound]``, in place.

    Args:
        lower_bound: The lowest value a gradient element keeps.
        upper_bound: The highest value a gradient element keeps.

    Attributes:
        lower_bound (float): The lower bound.
        upper_bound (float): The upper bound.
        timing (str): ``'pre'`` (default: before the update) or ``'post'``.
    """

    name = "GradientHardClipping"
    call_for_each_param = True
    timing = "pre"

    def __init__(self, lower_bound: float, upper_bound: float) -> None:
        real_number("GradientHardClipping", "lower_bound", lower_bound)
        real_number("GradientHardClipping", "upper_bound", upper_bound)
        if lower_bound > upper_bound:
            raise ValueError(
                "GradientHardClipping: lower_bound must not exceed upper_bound, got "
                f"lower_bound={lower_bound!r} > upper_bound={upper_bound!r}"
            )
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def __call__(self, rule, param) -> None:
        grad = param.grad
        if grad is None:
            return
        scale = grad_scale(param)
        lower, upper = self.lower_bound * scale, self.upper_bound * scale
        with param.device.create_context():
            if isinstance(grad, (numpy.ndarray, cuda.ndarray)):
                param.xp.clip(grad, lower, upper, out=grad)
            else:  # ChainerX (and iDeep) arrays: clip has no out=, assign in place instead
                grad[...] = grad.clip(lower, upper)
