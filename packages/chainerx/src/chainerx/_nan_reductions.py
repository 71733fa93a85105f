"""Reductions that skip NaNs, and ``count_nonzero``, over ChainerX's reductions."""

from typing import Any

from chainerx._core import argmax, argmin, isnan, ndarray, sum, where


def count_nonzero(a: ndarray, axis: Any = None) -> ndarray:
    """The number of non-zero elements (int64), over all of ``a`` or along ``axis``."""
    return sum(a != 0, axis)


def nansum(a: ndarray, axis: Any = None, keepdims: bool = False) -> ndarray:
    """The sum with NaNs counted as zero (differentiable; NaN elements get zero gradient)."""
    if a.dtype.kind != "f":
        return sum(a, axis, keepdims)
    return sum(where(isnan(a), 0, a), axis, keepdims)


def _without_nans(a: ndarray, axis: Any, fill: float, name: str) -> ndarray:
    if a.dtype.kind != "f":
        return a
    nans = isnan(a)
    if a.size > 0 and bool(nans.all(axis).any()):
        raise ValueError(f"{name}: All-NaN slice encountered")
    return where(nans, fill, a)


def nanargmax(a: ndarray, axis: int | None = None) -> ndarray:
    """Indices of the maxima ignoring NaNs; a slice of NaNs only raises ``ValueError``."""
    return argmax(_without_nans(a, axis, float("-inf"), "nanargmax"), axis)


def nanargmin(a: ndarray, axis: int | None = None) -> ndarray:
    """Indices of the minima ignoring NaNs; a slice of NaNs only raises ``ValueError``."""
    return argmin(_without_nans(a, axis, float("inf"), "nanargmin"), axis)
