"""The mean over every element of a function of ``x0 - x1``, on ChainerX arrays."""

from __future__ import annotations

from collections.abc import Callable

import numpy

from chainer.function_node import Fallback


def mean_of_difference(elementwise: Callable, inputs: tuple):
    """``mean(elementwise(x0 - x1))`` in ``x0``'s dtype, float16 summed in float32.

    Returns :data:`chainer.Fallback` for empty inputs (the NumPy forward gives nan).
    """
    x0, x1 = inputs
    if x0.size == 0:
        return Fallback
    diff = x0 - x1
    if diff.dtype == numpy.float16:  # float16 squares overflow and sums stop growing
        diff = diff.astype(numpy.float32)
    return ((elementwise(diff).sum() * (1.0 / diff.size)).astype(x0.dtype),)
