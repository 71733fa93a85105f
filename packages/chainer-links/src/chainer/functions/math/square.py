"""Elementwise square."""

from __future__ import annotations

from chainer.functions.math._unary import UnaryFloat
from chainer.variable import Variable


class Square(UnaryFloat):
    _xp_name = "square"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] * x * 2,)


def square(x) -> Variable:
    """Elementwise square, ``x * x``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: ``x ** 2``, of the shape and dtype of ``x``.

    Example:
        >>> F.square(np.array([3.0])).array
        array([9.])
    """
    return Square().apply((x,))[0]
