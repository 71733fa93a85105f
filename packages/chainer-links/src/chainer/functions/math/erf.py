"""Elementwise error function."""

from __future__ import annotations

import math

from chainer._ops.exponential import exp
from chainer.functions.math._special import UnarySpecial
from chainer.variable import Variable

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


class Erf(UnarySpecial):
    _special_name = "erf"
    _function_name = "erf"
    _chainerx_name = "erf"
    _retain = "x"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] * exp(-x * x) * _TWO_OVER_SQRT_PI,)


def erf(x) -> Variable:
    """Elementwise error function.

    Without SciPy, the CPU computation falls back to the standard library (slower).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: The result, of the shape and dtype of ``x``.

    Example:
        >>> F.erf(np.array([0.5])).array
        array([0.52049988])
    """
    return Erf().apply((x,))[0]
