"""Elementwise fix (piecewise constant, so not differentiable)."""

from __future__ import annotations

from chainer.functions.math._unary import piecewise_constant
from chainer.variable import Variable


def fix(x) -> Variable:
    """Elementwise rounding toward zero.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input array.

    Returns:
        ~chainer.Variable: The result, of the shape and dtype of ``x``, with no gradient
        (the function is piecewise constant).

    Example:
        >>> F.fix(np.array([-1.5, 1.2])).array
        array([-1.,  1.])
    """
    return piecewise_constant(x, "fix")
