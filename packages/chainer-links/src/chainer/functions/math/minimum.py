"""Elementwise minimum of two arrays."""

from __future__ import annotations

from chainer.functions.math.maximum import ElementwiseChoice
from chainer.variable import Variable


class Minimum(ElementwiseChoice):
    _xp_name = "minimum"

    @staticmethod
    def _first_wins(x1, x2):
        return x1 <= x2


def minimum(x1, x2) -> Variable:
    """Elementwise minimum of two arrays (broadcast against each other).

    Args:
        x1 (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.
        x2 (:class:`~chainer.Variable` or :ref:`ndarray`): Input of the dtype of ``x1``.

    Returns:
        ~chainer.Variable: ``min(x1, x2)`` per element. At ties the gradient goes to ``x1``.

    Example:
        >>> F.minimum(np.array([1.0, 4.0]), np.array([3.0, 2.0])).array
        array([1., 2.])
    """
    return Minimum().apply((x1, x2))[0]
