"""Elementwise complementary error function, ``1 - erf(x)``."""

from __future__ import annotations

import math

from chainer._ops.exponential import exp
from chainer.functions.math._special import UnarySpecial
from chainer.variable import Variable

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


class Erfc(UnarySpecial):
    _special_name = "erfc"
    _function_name = "erfc"
    _retain = "x"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] * exp(-x * x) * -_TWO_OVER_SQRT_PI,)


def erfc(x) -> Variable:
    """Elementwise complementary error function, ``1 - erf(x)``.

    Without SciPy, the CPU computation falls back to the standard library (slower).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: The result, of the shape and dtype of ``x``.

    Example:
        >>> F.erfc(np.array([0.5])).array
        array([0.47950012])
    """
    return Erfc().apply((x,))[0]
