"""Axis checks shared by the functions that are permutations of axes (moveaxis, ...)."""

from __future__ import annotations

from chainer.utils import type_check


def check_int(value, name: str) -> int:
    """Return ``value`` if it is an int (not a bool); raise ``TypeError`` otherwise."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}: {value!r}")
    return value


def normalize_axis(axis, ndim: int, name: str = "axis") -> int:
    """Return ``axis`` in ``[0, ndim)``; raise ``InvalidType`` when it is out of range."""
    check_int(axis, name)
    if not -ndim <= axis < ndim:
        raise type_check.InvalidType(
            f"-{ndim} <= {name} < {ndim} (x.ndim == {ndim})", f"{name} == {axis}"
        )
    return axis % ndim
