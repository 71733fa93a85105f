"""``exp(x) - 1``, accurate near zero."""

from __future__ import annotations

from chainer.functions.math._unary import UnaryFloat
from chainer.variable import Variable


class Expm1(UnaryFloat):
    _xp_name = "expm1"
    _retain = "y"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (y,) = self.get_retained_outputs()
        return (grad_outputs[0] * (y + 1),)


def expm1(x) -> Variable:
    """Elementwise ``exp(x) - 1``, accurate for small ``|x|``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: ``exp(x) - 1``, of the shape and dtype of ``x``.

    Example:
        >>> F.expm1(np.array([0.0])).array
        array([0.])
    """
    return Expm1().apply((x,))[0]
