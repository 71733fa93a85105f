"""Square root and its reciprocal."""

from __future__ import annotations

from chainer.functions.math._unary import UnaryFloat
from chainer.variable import Variable


class Sqrt(UnaryFloat):
    _xp_name = "sqrt"
    _retain = "y"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (y,) = self.get_retained_outputs()
        return (grad_outputs[0] / (y * 2),)


def sqrt(x) -> Variable:
    """Elementwise square root.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Non-negative input of a
            floating-point dtype.

    Returns:
        ~chainer.Variable: ``sqrt(x)``, of the shape and dtype of ``x``.

    Example:
        >>> F.sqrt(np.array([4.0])).array
        array([2.])
    """
    return Sqrt().apply((x,))[0]


def rsqrt(x) -> Variable:
    """Elementwise reciprocal of the square root, ``1 / sqrt(x)``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Positive input of a floating-point
            dtype.

    Returns:
        ~chainer.Variable: ``1 / sqrt(x)``, of the shape and dtype of ``x``.

    Example:
        >>> F.rsqrt(np.array([4.0])).array
        array([0.5])
    """
    return 1.0 / sqrt(x)
