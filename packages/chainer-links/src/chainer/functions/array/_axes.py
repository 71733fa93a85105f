"""Axis checks shared by the functions that permute axes (moveaxis, ...) or stack arrays."""

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


def check_same_ndim(xs, low: int) -> None:
    """Raise ``InvalidType`` unless all of ``xs`` have one ndim, and (below ``low`` axes,
    where NumPy would first promote them) one shape, as Chainer's ``vstack``/``dstack``."""
    ndim, shape = xs[0].ndim, tuple(xs[0].shape)
    for i, x in enumerate(xs[1:], 1):
        if x.ndim != ndim:
            raise type_check.InvalidType(
                f"in_types[0].ndim == in_types[{i}].ndim", f"{ndim} != {x.ndim}"
            )
        if ndim < low and tuple(x.shape) != shape:
            raise type_check.InvalidType(
                f"in_types[0].shape == in_types[{i}].shape", f"{shape} != {tuple(x.shape)}"
            )
