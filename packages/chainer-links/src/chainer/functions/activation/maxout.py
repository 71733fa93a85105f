"""Maxout: the maximum over groups of ``pool_size`` consecutive channels."""

from __future__ import annotations

import numbers

from chainer import backend
from chainer._ops.array_ops import reshape
from chainer._ops.get_item import get_item
from chainer.utils import type_check
from chainer.variable import Variable, as_variable


def _take_max(x: Variable, axis: int) -> Variable:
    """The maximum of ``x`` along ``axis``, picked by indexing so that it is differentiable.

    The gradient flows to the picked elements only, and indexing's own gradient (a scatter)
    is differentiable again.
    """
    xp = backend.get_array_module(x.array)
    picked = x.array.argmax(axis=axis)
    out_ndim = picked.ndim
    index = []
    for d, n in enumerate(picked.shape):
        shape = [1] * out_ndim
        shape[d] = n
        index.append(xp.arange(n).reshape(shape))
    index.insert(axis, picked)
    return get_item(x, tuple(index))


def maxout(x, pool_size: int, axis: int = 1) -> Variable:
    """Maxout activation: :math:`y_i = \\max_j x_{i \\cdot p + j}` along ``axis``.

    ``axis`` is cut into groups of ``pool_size`` consecutive elements and each group is
    replaced by its maximum. With a linear layer in front, this is the maxout unit of
    Goodfellow et al. (2013).

    Args:
        x: Input variable or array of floating-point dtype.
        pool_size: The number of elements per group; it must divide ``x.shape[axis]``.
        axis: The axis to pool along.

    Returns:
        A variable whose ``axis`` is ``pool_size`` times shorter than in ``x``.

    Raises:
        TypeError: ``pool_size`` or ``axis`` is not an integer.
        ValueError: ``pool_size`` is not positive or ``axis`` is out of range.
        InvalidType: ``x`` is not floating-point, or ``x.shape[axis]`` is not a multiple of
            ``pool_size``.

    Example:
        >>> x = numpy.array([[1.0, 5.0, -2.0, 3.0]], numpy.float32)
        >>> F.maxout(x, 2).array
        array([[5., 3.]], dtype=float32)
    """
    for name, value in (("pool_size", pool_size), ("axis", axis)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} must be an int, got {type(value).__name__}: {value!r}")
    if pool_size <= 0:
        raise ValueError(f"pool_size must be a positive integer, got {pool_size}")
    x = as_variable(x)
    shape = x.shape
    if not -len(shape) <= axis < len(shape):
        raise ValueError(f"axis {axis} is out of range for an input of {len(shape)} dimensions")
    axis %= len(shape)
    if x.dtype.kind != "f":
        raise type_check.InvalidType("x.dtype.kind == f", f"x.dtype == {x.dtype}")
    if shape[axis] % pool_size:
        raise type_check.InvalidType(
            "x.shape[axis] % pool_size == 0",
            f"x.shape[{axis}] == {shape[axis]}, pool_size == {pool_size}",
        )
    grouped = shape[:axis] + (shape[axis] // pool_size, pool_size) + shape[axis + 1 :]
    return _take_max(reshape(x, grouped), axis + 1)
