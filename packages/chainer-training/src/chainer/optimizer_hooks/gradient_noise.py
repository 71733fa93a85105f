"""Annealed Gaussian noise added to the gradients."""

from __future__ import annotations

import math
from collections.abc import Callable

from chainer.optimizer_hooks._common import grad_scale, real_number


def exponential_decay_noise(xp, shape: tuple, dtype, hook: GradientNoise, opt):
    """Gaussian noise whose variance decays with the update count.

    The standard deviation is ``sqrt(hook.eta / (1 + opt.t) ** 0.55)`` (Neelakantan et al.,
    *Adding Gradient Noise Improves Learning for Very Deep Networks*, 2015).

    Args:
        xp: The array module of the gradient.
        shape: Shape of the noise.
        dtype: Its dtype.
        hook: The :class:`GradientNoise` calling it.
        opt: The update rule (or optimizer) whose ``t`` is the update count.

    Returns:
        An array of noise.
    """
    std = math.sqrt(hook.eta / math.pow(1 + opt.t, 0.55))
    return xp.random.normal(0, std, shape).astype(dtype, copy=False)


class GradientNoise:
    """Optimizer/UpdateRule hook function for adding gradient noise.

    Adds ``noise_func(xp, shape, dtype, hook, rule)`` to each gradient.

    Args:
        eta: Scale of the noise (the variance at ``t == 0`` for the default ``noise_func``).
        noise_func: The noise generator; defaults to :func:`exponential_decay_noise`.

    Attributes:
        eta (float): Scale of the noise.
        noise_func: The noise generator.
        timing (str): ``'pre'`` (default: before the update) or ``'post'``.
    """

    name = "GradientNoise"
    call_for_each_param = True
    timing = "pre"

    def __init__(self, eta: float, noise_func: Callable = exponential_decay_noise) -> None:
        self.eta = real_number("GradientNoise", "eta", eta)
        if not callable(noise_func):
            raise TypeError(
                f"GradientNoise: noise_func must be callable, got {type(noise_func).__name__}"
            )
        self.noise_func = noise_func

    def __call__(self, rule, param) -> None:
        grad = param.grad
        if grad is None:
            return
        with param.device.create_context():
            noise = self.noise_func(param.xp, grad.shape, grad.dtype, self, rule)
            scale = grad_scale(param)
            if scale != 1:
                noise *= scale
            grad += noise
