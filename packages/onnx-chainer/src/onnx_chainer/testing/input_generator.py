"""Deterministic inputs for exporter tests."""

from __future__ import annotations

import math

import numpy as np


def _ramp(shape: tuple[int, ...], low: float, high: float, dtype) -> np.ndarray:
    size = math.prod(shape)
    values = np.linspace(low, high, size) if size > 1 else np.full(size, (low + high) / 2)
    return values.reshape(shape).astype(dtype)


def increasing(*shape: int, dtype=np.float32) -> np.ndarray:
    """A monotonically increasing array from -1 to 1 (negative, zero-ish and positive values)."""
    return _ramp(shape, -1.0, 1.0, dtype)


def nonzero_increasing(*shape: int, dtype=np.float32) -> np.ndarray:
    """A monotonically increasing array in [-1.1, -0.1] and [0.1, 1.1], never zero."""
    values = _ramp(shape, -1.0, 1.0, np.float64)
    return np.where(values < 0, values - 0.1, values + 0.1).astype(dtype)


def positive_increasing(*shape: int, dtype=np.float32) -> np.ndarray:
    """A monotonically increasing array of positive values, from 0.1 to 1.1."""
    return _ramp(shape, 0.1, 1.1, dtype)
