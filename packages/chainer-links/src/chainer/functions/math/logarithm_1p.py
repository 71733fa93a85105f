"""``log(1 + x)``, accurate near zero."""

from __future__ import annotations

from chainer.functions.math._unary import UnaryFloat
from chainer.variable import Variable


class Log1p(UnaryFloat):
    _xp_name = "log1p"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] / (x + 1),)


def log1p(x) -> Variable:
    """Elementwise ``log(1 + x)``, accurate for small ``|x|``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype,
            greater than -1.

    Returns:
        ~chainer.Variable: ``log(1 + x)``, of the shape and dtype of ``x``.

    Example:
        >>> F.log1p(np.array([0.0])).array
        array([0.])
    """
    return Log1p().apply((x,))[0]
