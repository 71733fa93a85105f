"""Validation of ``axis`` arguments shared by the reductions and scans."""

from __future__ import annotations

import numpy

from chainer.utils import type_check


def _is_int(value) -> bool:
    return isinstance(value, (int, numpy.integer)) and not isinstance(value, bool)


def normalize_axes(axis) -> tuple | None:
    """``None``, an int or a tuple of ints as ``None`` or a tuple (not yet made positive).

    Raises:
        TypeError: For any other type.
        ValueError: For a tuple with a repeated axis.
    """
    if axis is None:
        return None
    if _is_int(axis):
        return (int(axis),)
    if isinstance(axis, tuple) and all(_is_int(a) for a in axis):
        if len(set(axis)) != len(axis):
            raise ValueError(f"duplicate value in axis: {axis}")
        return tuple(int(a) for a in axis)
    raise TypeError(f"axis must be None, an int or a tuple of ints, got {axis!r}")


def check_single_axis(axis) -> None:
    """Raise ``TypeError`` unless ``axis`` is ``None`` or an int."""
    if axis is not None and not _is_int(axis):
        raise TypeError(f"axis must be None or an int, got {axis!r}")


def expect_axes(x_type, axes) -> None:
    """Type-check that every axis in ``axes`` (``None`` or a tuple) is an axis of ``x_type``."""
    for a in axes or ():
        if a >= 0:
            type_check.expect(a < x_type.ndim)
        else:
            type_check.expect(-a - 1 < x_type.ndim)


def kept_shape(shape: tuple, axes) -> tuple:
    """The shape a reduction over ``axes`` has with ``keepdims=True``."""
    if axes is None:
        return (1,) * len(shape)
    ndim = len(shape)
    reduced = {a % ndim for a in axes}
    return tuple(1 if i in reduced else n for i, n in enumerate(shape))
