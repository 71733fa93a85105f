"""``swapaxes``: exchange two axes of a variable (a transpose, so no copy)."""

from __future__ import annotations

from chainer._ops.array_ops import transpose
from chainer.functions.array._axes import normalize_axis
from chainer.variable import Variable

__all__ = ["swapaxes"]


def swapaxes(x, axis1: int, axis2: int) -> Variable:
    """Swap two axes of a variable, as :func:`numpy.swapaxes`.

    Args:
        x: Input variable or array.
        axis1: The first axis.
        axis2: The second axis.

    Returns:
        The variable with ``axis1`` and ``axis2`` exchanged.

    Example:
        >>> x = np.zeros((2, 3, 4), np.float32)
        >>> F.swapaxes(x, 0, 2).shape
        (4, 3, 2)
    """
    ndim = x.ndim
    axis1 = normalize_axis(axis1, ndim, "axis1")
    axis2 = normalize_axis(axis2, ndim, "axis2")
    axes = list(range(ndim))
    axes[axis1], axes[axis2] = axis2, axis1
    return transpose(x, axes)
