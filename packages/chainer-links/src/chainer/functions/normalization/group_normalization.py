"""Group normalization: normalize each sample over groups of channels."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer._ops.array_ops import reshape
from chainer.functions.normalization.batch_normalization import batch_normalization
from chainer.utils import type_check
from chainer.variable import Variable


def group_normalization(x, groups: int, gamma, beta, eps=1e-5) -> Variable:
    """Group normalization function.

    The channels of every sample are split into ``groups`` groups; each group is normalized
    with its own mean and variance (over its channels and the spatial axes), then every
    channel is scaled by ``gamma`` and shifted by ``beta``. Unlike batch normalization, the
    result does not depend on the other samples of the batch.

    Args:
        x: Input of floating-point dtype and shape ``(n, c, ...)``; the groups are
            normalized over their channels and any further axes.
        groups: Number of channel groups; must divide ``c``.
        gamma: Scale of shape ``(c,)`` and the dtype of ``x``.
        beta: Shift of shape ``(c,)`` and the dtype of ``x``.
        eps: Added to the variances for stability.

    Returns:
        A variable of the shape and dtype of ``x``.

    Raises:
        ValueError: ``x`` has fewer than 2 axes or ``groups`` does not divide ``c``.
        TypeError: ``groups`` is not an int.

    Example:
        >>> x = numpy.arange(8, dtype=numpy.float32).reshape(1, 4, 2)
        >>> one, zero = numpy.ones(4, numpy.float32), numpy.zeros(4, numpy.float32)
        >>> F.group_normalization(x, 2, one, zero).array.round(2)
        array([[[-1.34, -0.45],
                [ 0.45,  1.34],
                [-1.34, -0.45],
                [ 0.45,  1.34]]], dtype=float32)
    """
    if len(x.shape) < 2:
        raise ValueError(
            "Input must have at least 2 dimensions (batch and channel); "
            f"got x.shape == {tuple(x.shape)}"
        )
    if not isinstance(groups, (int, numpy.integer)) or isinstance(groups, bool):
        raise TypeError(f"Argument: 'groups' type must be (int), got {type(groups).__name__}")
    n, channels = x.shape[:2]
    if groups < 1 or channels % groups:
        raise ValueError(
            f"Argument: 'groups' must be a divisor of the number of channel {channels}, "
            f"got {groups}"
        )
    for name, param in (("gamma", gamma), ("beta", beta)):
        if tuple(param.shape) != (channels,):
            raise type_check.InvalidType(
                f"{name}.shape == ({channels},)", f"{name}.shape == {tuple(param.shape)}"
            )
    # Each (sample, group) pair becomes one row normalized over its elements.
    xp = backend.get_array_module(x)
    rows = reshape(x, (n * groups, -1))
    ones = xp.ones(n * groups, dtype=x.dtype)
    zeros = xp.zeros(n * groups, dtype=x.dtype)
    x_hat = reshape(batch_normalization(rows, ones, zeros, eps=eps, axis=1), x.shape)
    channel_shape = (1, channels) + (1,) * (len(x.shape) - 2)
    return x_hat * reshape(gamma, channel_shape) + reshape(beta, channel_shape)
