"""Elementwise sign (piecewise constant, so not differentiable)."""

from __future__ import annotations

from chainer.functions.math._unary import piecewise_constant
from chainer.variable import Variable


def sign(x) -> Variable:
    """Elementwise sign: -1, 0 or 1.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input array.

    Returns:
        ~chainer.Variable: The result, of the shape and dtype of ``x``, with no gradient
        (the function is piecewise constant).

    Example:
        >>> F.sign(np.array([-1.5, 0.0, 1.2])).array
        array([-1.,  0.,  1.])
    """
    return piecewise_constant(x, "sign")
