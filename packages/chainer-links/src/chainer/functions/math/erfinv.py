"""Elementwise inverse of the error function."""

from __future__ import annotations

import math

from chainer._ops.exponential import exp
from chainer.functions.math._special import UnarySpecial
from chainer.variable import Variable

_HALF_SQRT_PI = math.sqrt(math.pi) / 2.0


class ErfInv(UnarySpecial):
    _special_name = "erfinv"
    _function_name = "erfinv"
    _retain = "y"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (y,) = self.get_retained_outputs()
        return (grad_outputs[0] * exp(y * y) * _HALF_SQRT_PI,)


def erfinv(x) -> Variable:
    """Elementwise inverse of the error function.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype,
            in ``[-1, 1]``.

    Returns:
        ~chainer.Variable: The result, of the shape and dtype of ``x``.

    Raises:
        ImportError: On the CPU, when SciPy is not installed.

    Example:
        >>> F.erfinv(np.array([0.5])).array
        array([0.47693628])
    """
    return ErfInv().apply((x,))[0]
