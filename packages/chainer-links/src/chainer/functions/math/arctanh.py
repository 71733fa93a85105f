"""Inverse hyperbolic tangent."""

from __future__ import annotations

from chainer.functions.math._unary import UnaryFloat
from chainer.variable import Variable


class Arctanh(UnaryFloat):
    _xp_name = "arctanh"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] / (1 - x * x),)


def arctanh(x) -> Variable:
    """Elementwise inverse hyperbolic tangent, defined on ``(-1, 1)``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: ``arctanh(x)``, of the shape and dtype of ``x``.

    Example:
        >>> F.arctanh(np.array([0.0])).array
        array([0.])
    """
    return Arctanh().apply((x,))[0]
