"""Exponential and logarithms. ``exp`` and ``log`` are the core's own ops (one implementation)."""

from __future__ import annotations

import math

from chainer._ops.exponential import Exp, Log, exp, log
from chainer.functions.math._unary import UnaryFloat
from chainer.variable import Variable

__all__ = ["Exp", "Log", "Log2", "Log10", "exp", "log", "log2", "log10"]

_LN2 = math.log(2.0)
_LN10 = math.log(10.0)


class Log2(UnaryFloat):
    _xp_name = "log2"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] / (x * _LN2),)


class Log10(UnaryFloat):
    _xp_name = "log10"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] / (x * _LN10),)


def log2(x) -> Variable:
    """Elementwise logarithm to the base 2.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: ``log2(x)``, of the shape and dtype of ``x``.

    Example:
        >>> F.log2(np.array([8.0])).array
        array([3.])
    """
    return Log2().apply((x,))[0]


def log10(x) -> Variable:
    """Elementwise logarithm to the base 10.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: ``log10(x)``, of the shape and dtype of ``x``.

    Example:
        >>> F.log10(np.array([100.0])).array
        array([2.])
    """
    return Log10().apply((x,))[0]
