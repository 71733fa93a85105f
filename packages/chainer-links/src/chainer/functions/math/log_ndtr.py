"""Elementwise logarithm of the standard normal cumulative distribution function."""

from __future__ import annotations

import math

from chainer.functions.math._special import UnarySpecial
from chainer.functions.math.erfcx import erfcx
from chainer.variable import Variable

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_SQRT_HALF = math.sqrt(0.5)


class LogNdtr(UnarySpecial):
    _special_name = "log_ndtr"
    _function_name = "log_ndtr"
    _retain = "x"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        # d/dx log(ndtr(x)) = pdf / cdf, written with erfcx to stay finite for very negative x.
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] * _SQRT_2_OVER_PI / erfcx(x * -_SQRT_HALF),)


def log_ndtr(x) -> Variable:
    """Elementwise logarithm of the standard normal cumulative distribution function.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: The result, of the shape and dtype of ``x``.

    Raises:
        ImportError: On the CPU, when SciPy is not installed.

    Example:
        >>> F.log_ndtr(np.array([0.0])).array
        array([-0.69314718])
    """
    return LogNdtr().apply((x,))[0]
