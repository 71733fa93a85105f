"""Elementwise inverse of the standard normal cumulative distribution function."""

from __future__ import annotations

import math

from chainer._ops.exponential import exp
from chainer.functions.math._special import UnarySpecial
from chainer.variable import Variable

_SQRT_2PI = math.sqrt(2.0 * math.pi)


class Ndtri(UnarySpecial):
    _special_name = "ndtri"
    _function_name = "ndtri"
    _retain = "y"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (y,) = self.get_retained_outputs()
        return (grad_outputs[0] * exp(y * y * 0.5) * _SQRT_2PI,)


def ndtri(x) -> Variable:
    """Elementwise inverse of the standard normal cumulative distribution function.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype,
            in ``[0, 1]``.

    Returns:
        ~chainer.Variable: The result, of the shape and dtype of ``x``.

    Raises:
        ImportError: On the CPU, when SciPy is not installed.

    Example:
        >>> F.ndtri(np.array([0.5])).array
        array([0.])
    """
    return Ndtri().apply((x,))[0]
