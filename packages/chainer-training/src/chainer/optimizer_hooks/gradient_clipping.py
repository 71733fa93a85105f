"""Gradient clipping by the global L2 norm."""

from __future__ import annotations

import math

from chainer.optimizer_hooks._common import grad_scale, real_number, squared_norm


class GradientClipping:
    """Optimizer hook function for gradient clipping.

    When the L2 norm of all gradients together exceeds ``threshold``, every gradient is
    multiplied by ``threshold / norm`` so that the norm becomes ``threshold``; smaller
    gradients are left alone. The norm is that of the true gradients, without loss scale.

    Args:
        threshold: The largest norm the gradients keep.

    Attributes:
        threshold (float): The largest norm the gradients keep.
        timing (str): ``'pre'`` (default: before the update) or ``'post'``.
    """

    name = "GradientClipping"
    timing = "pre"

    def __init__(self, threshold: float) -> None:
        real_number("GradientClipping", "threshold", threshold)
        if threshold < 0:
            raise ValueError(f"GradientClipping: threshold must be >= 0, got {threshold!r}")
        self.threshold = threshold

    def __call__(self, opt) -> None:
        params = [p for p in opt.target.params(include_uninit=False) if p.grad is not None]
        norm = math.sqrt(sum(squared_norm(p.grad) / grad_scale(p) ** 2 for p in params))
        if norm <= self.threshold:
            return
        rate = self.threshold / norm
        for param in params:
            with param.device.create_context():
                param.grad *= rate
