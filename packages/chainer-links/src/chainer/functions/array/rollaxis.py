"""``rollaxis``: move one axis to a given position (a transpose, so no copy)."""

from __future__ import annotations

from chainer._ops.array_ops import transpose
from chainer.functions.array._axes import check_int, normalize_axis
from chainer.utils import type_check
from chainer.variable import Variable

__all__ = ["rollaxis"]


def rollaxis(x, axis: int, start: int = 0) -> Variable:
    """Roll an axis backwards until it lies before ``start``, as :func:`numpy.rollaxis`.

    Args:
        x: Input variable or array.
        axis: The axis to roll.
        start: The axis before which ``axis`` ends up, in ``[-ndim, ndim]``; the other axes
            keep their order.

    Returns:
        The variable with its axes rolled.

    Example:
        >>> x = np.zeros((2, 3, 4, 5), np.float32)
        >>> F.rollaxis(x, 3, 1).shape
        (2, 5, 3, 4)
        >>> F.rollaxis(x, 0, 3).shape
        (3, 4, 2, 5)
    """
    ndim = x.ndim
    axis = normalize_axis(axis, ndim)
    check_int(start, "start")
    # start may be ndim: "after the last axis".
    if not -ndim <= start <= ndim:
        raise type_check.InvalidType(
            f"-{ndim} <= start <= {ndim} (x.ndim == {ndim})", f"start == {start}"
        )
    if start < 0:
        start += ndim
    if axis < start:
        start -= 1
    axes = [a for a in range(ndim) if a != axis]
    axes.insert(start, axis)
    return transpose(x, axes)
