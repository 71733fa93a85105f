"""Elementwise digamma function, the derivative of ``lgamma``."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer.functions.math._special import UnarySpecial
from chainer.functions.math.polygamma import polygamma
from chainer.variable import Variable


class DiGamma(UnarySpecial):
    _special_name = "psi"
    _function_name = "digamma"
    _retain = "x"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        order = backend.get_array_module(x.array).ones((), dtype=numpy.int32)
        return (grad_outputs[0] * polygamma(order, x),)


def digamma(x) -> Variable:
    """Elementwise digamma function, the derivative of ``lgamma``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: The result, of the shape and dtype of ``x``.

    Raises:
        ImportError: On the CPU, when SciPy is not installed.

    Example:
        >>> F.digamma(np.array([1.0])).array
        array([-0.57721566])
    """
    return DiGamma().apply((x,))[0]
