"""Elementwise cumulative distribution function of the standard normal distribution."""

from __future__ import annotations

import math

from chainer._ops.exponential import exp
from chainer.functions.math._special import UnarySpecial
from chainer.variable import Variable

_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


class Ndtr(UnarySpecial):
    _special_name = "ndtr"
    _function_name = "ndtr"
    _retain = "x"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] * exp(x * x * -0.5) * _INV_SQRT_2PI,)


def ndtr(x) -> Variable:
    """Elementwise cumulative distribution function of the standard normal distribution.

    Without SciPy, the CPU computation falls back to the standard library (slower).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: The result, of the shape and dtype of ``x``.

    Example:
        >>> F.ndtr(np.array([0.0])).array
        array([0.5])
    """
    return Ndtr().apply((x,))[0]
