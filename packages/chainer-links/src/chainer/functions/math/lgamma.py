"""Elementwise logarithm of the absolute value of the gamma function."""

from __future__ import annotations

from chainer.functions.math._special import UnarySpecial
from chainer.functions.math.digamma import digamma
from chainer.variable import Variable


class LGamma(UnarySpecial):
    _special_name = "gammaln"
    _function_name = "lgamma"
    _retain = "x"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] * digamma(x),)


def lgamma(x) -> Variable:
    """Elementwise logarithm of the absolute value of the gamma function.

    Without SciPy, the CPU computation falls back to the standard library (slower).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: The result, of the shape and dtype of ``x``.

    Example:
        >>> F.lgamma(np.array([3.0])).array
        array([0.69314718])
    """
    return LGamma().apply((x,))[0]
