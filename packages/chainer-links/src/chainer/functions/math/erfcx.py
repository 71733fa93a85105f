"""Elementwise scaled complementary error function, ``exp(x ** 2) * erfc(x)``."""

from __future__ import annotations

import math

from chainer.functions.math._special import UnarySpecial
from chainer.variable import Variable

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


class Erfcx(UnarySpecial):
    _special_name = "erfcx"
    _function_name = "erfcx"
    _retain = "xy"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        (y,) = self.get_retained_outputs()
        return (grad_outputs[0] * (x * y * 2 - _TWO_OVER_SQRT_PI),)


def erfcx(x) -> Variable:
    """Elementwise scaled complementary error function, ``exp(x ** 2) * erfc(x)``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: The result, of the shape and dtype of ``x``.

    Raises:
        ImportError: On the CPU, when SciPy is not installed.

    Example:
        >>> F.erfcx(np.array([0.5])).array
        array([0.61569034])
    """
    return Erfcx().apply((x,))[0]
