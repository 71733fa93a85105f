"""Small helpers on raw arrays (NumPy, CuPy or ChainerX) used by function implementations."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any


def as_vec(x: Any) -> Any:
    """Return ``x`` flattened to one dimension (``x`` itself when it already is 1-D)."""
    return x if x.ndim == 1 else x.ravel()


def as_mat(x: Any) -> Any:
    """Return ``x`` as a matrix that keeps the first axis: shape ``(len(x), -1)``."""
    return x if x.ndim == 2 else x.reshape(len(x), -1)


def size_of_shape(shape: Iterable[int]) -> int:
    """Return the number of elements of an array of ``shape`` (1 for ``()``), as a Python int."""
    size = 1
    for dim in shape:
        size *= dim
    return int(size)


def sum_to(x: Any, shape: tuple[int, ...]) -> Any:
    """Sum the array ``x`` over broadcast axes so that it gets ``shape``.

    This undoes broadcasting: the leading axes that ``shape`` lacks are summed away and the axes
    where ``shape`` has 1 are summed with ``keepdims``.

    Args:
        x: A raw array (for a :class:`~chainer.Variable`, use ``chainer.functions.sum_to``).
        shape: The target shape; ``x.shape`` must be ``shape`` broadcast to more axes or sizes.

    Example:
        >>> sum_to(numpy.ones((2, 3, 4)), (3, 1)).shape
        (3, 1)
    """
    shape = tuple(shape)
    if x.shape == shape:
        return x
    # A Variable can exist only once chainer.variable is imported, so there is nothing to import.
    variable = sys.modules.get("chainer.variable")
    if variable is not None and isinstance(x, variable.Variable):
        raise TypeError(
            "chainer.utils.sum_to does not support Variable input. "
            "Use chainer.functions.sum_to instead."
        )
    lead = x.ndim - len(shape)
    if lead < 0 or any(s not in (1, d) for s, d in zip(shape, x.shape[lead:])):
        raise ValueError(f"cannot sum an array of shape {x.shape} to shape {shape}")
    lead_axes = tuple(range(lead))
    ones_axes = tuple(lead + i for i, s in enumerate(shape) if s == 1 and x.shape[lead + i] != 1)
    return x.sum(lead_axes + ones_axes, keepdims=True).reshape(shape)
