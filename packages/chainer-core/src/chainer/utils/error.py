"""Helpers that describe arrays in error messages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def _format_array_props(arrays: Sequence[Any]) -> str:
    """Describe each array as ``shape:dtype`` (``None`` for a missing one), comma-separated.

    Example:
        >>> _format_array_props([numpy.zeros((2, 3), numpy.float32), None])
        '(2, 3):float32, None'
    """
    return ", ".join(
        "None" if array is None else f"{tuple(array.shape)}:{array.dtype.name}" for array in arrays
    )
