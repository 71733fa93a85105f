"""Elementwise inverse of the complementary error function."""

from __future__ import annotations

import math

from chainer._ops.exponential import exp
from chainer.functions.math._special import UnarySpecial
from chainer.variable import Variable

_HALF_SQRT_PI = math.sqrt(math.pi) / 2.0


class ErfcInv(UnarySpecial):
    _special_name = "erfcinv"
    _function_name = "erfcinv"
    _retain = "y"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (y,) = self.get_retained_outputs()
        return (grad_outputs[0] * exp(y * y) * -_HALF_SQRT_PI,)


def erfcinv(x) -> Variable:
    """Elementwise inverse of the complementary error function.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype,
            in ``[0, 2]``.

    Returns:
        ~chainer.Variable: The result, of the shape and dtype of ``x``.

    Raises:
        ImportError: On the CPU, when SciPy is not installed.

    Example:
        >>> F.erfcinv(np.array([0.5])).array
        array([0.47693628])
    """
    return ErfcInv().apply((x,))[0]
