"""Axis bookkeeping and helpers shared by the batch normalization functions.

A batch normalization of ``x`` reduces over some axes (by default the batch axis and every
axis after the parameter's); the parameters (``gamma``, ``beta``, statistics) have the shape of
``x`` without those axes.
"""

from __future__ import annotations

import numpy

from chainer.utils import type_check


def reduced_axes(x_ndim: int, param_ndim: int, axis) -> tuple[int, ...]:
    """The axes of ``x`` to reduce over, sorted.

    Args:
        x_ndim: Number of axes of the input.
        param_ndim: Number of axes of ``gamma``.
        axis: ``None`` for ``(0, param_ndim + 1, ..., x_ndim - 1)``, or an int or a tuple of
            ints in ascending order.
    """
    if axis is None:
        return (0, *range(param_ndim + 1, x_ndim))
    axes = (axis,) if isinstance(axis, (int, numpy.integer)) else tuple(axis)
    if not axes or not all(isinstance(a, (int, numpy.integer)) for a in axes):
        raise TypeError(f"axis must be an int or a non-empty tuple of ints, got {axis!r}")
    if not all(-x_ndim <= a < x_ndim for a in axes):
        raise ValueError(f"axis {axis!r} is out of range for an input with {x_ndim} axes")
    normalized = tuple(int(a) % x_ndim for a in axes)
    if any(b <= a for a, b in zip(normalized, normalized[1:])):
        raise ValueError(f"axis must be sorted in ascending order without repeats, got {axis!r}")
    return normalized


def param_shape(x_shape: tuple, axes: tuple) -> tuple:
    """Shape of the parameters: ``x_shape`` without the reduced axes."""
    return tuple(n for i, n in enumerate(x_shape) if i not in axes)


def keepdims_shape(x_shape: tuple, axes: tuple) -> tuple:
    """Shape that broadcasts a parameter against ``x``: ones at the reduced axes."""
    return tuple(1 if i in axes else n for i, n in enumerate(x_shape))


def compute_dtype(x_dtype, param_dtype) -> numpy.dtype:
    """Statistics are computed at least in float32 (float16 sums lose too much)."""
    return numpy.result_type(x_dtype, param_dtype, numpy.float32)


def check_params(in_types, names: tuple, axis, *, same_param_dtype: bool = True) -> tuple:
    """Type check of ``(x, gamma, beta, ...)``: float inputs, parameters of one dtype (any
    float dtypes when ``same_param_dtype`` is False) and of the shape of ``x`` without the
    reduced axes.

    Returns:
        The reduced axes.
    """
    type_check.argname(in_types, names)
    x_type, gamma_type = in_types[:2]
    type_check.expect(x_type.dtype.kind == "f", gamma_type.dtype.kind == "f")
    for p_type in in_types[2:]:
        if same_param_dtype:
            type_check.expect(p_type.dtype == gamma_type.dtype)
        else:
            type_check.expect(p_type.dtype.kind == "f")
        type_check.expect(p_type.shape == gamma_type.shape)
    x_ndim = type_check.eval(x_type.ndim)
    gamma_ndim = type_check.eval(gamma_type.ndim)
    if axis is None:
        type_check.expect(x_type.ndim >= gamma_type.ndim + 1)
    axes = reduced_axes(x_ndim, gamma_ndim, axis)
    expected = param_shape(type_check.eval(x_type.shape), axes)
    type_check.expect(gamma_type.shape == expected)
    return axes
