"""Hyperbolic functions: sinh and cosh."""

from __future__ import annotations

from chainer.functions.math._unary import UnaryFloat
from chainer.variable import Variable


class Sinh(UnaryFloat):
    _xp_name = "sinh"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] * cosh(x),)


class Cosh(UnaryFloat):
    _xp_name = "cosh"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] * sinh(x),)


def sinh(x) -> Variable:
    """Elementwise hyperbolic sine.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: ``sinh(x)``, of the shape and dtype of ``x``.

    Example:
        >>> F.sinh(np.array([0.0])).array
        array([0.])
    """
    return Sinh().apply((x,))[0]


def cosh(x) -> Variable:
    """Elementwise hyperbolic cosine.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: ``cosh(x)``, of the shape and dtype of ``x``.

    Example:
        >>> F.cosh(np.array([0.0])).array
        array([1.])
    """
    return Cosh().apply((x,))[0]
