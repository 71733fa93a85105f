"""Deterministic initializers: the identity matrix and constant fills (Zero, One, NaN)."""

from __future__ import annotations

from typing import Any

import numpy

from chainer.initializer import Initializer
from chainer.initializers._arrays import assign, is_array, is_scalar


class Identity(Initializer):
    """Initializes array with the identity matrix times ``scale``.

    Only square 2-D arrays can be initialized.

    Args:
        scale: Value of the diagonal elements.
        dtype: Dtype the arrays to fill must have (``None`` accepts any).
    """

    def __init__(self, scale: float = 1.0, dtype: Any | None = None) -> None:
        self.scale = scale
        super().__init__(dtype)

    def __call__(self, array: Any) -> None:
        self._check_dtype(array)
        shape = array.shape
        if len(shape) != 2 or shape[0] != shape[1]:
            raise ValueError(
                f"Identity initializes only square 2-D arrays (n, n), got shape {shape}"
            )
        assign(array, self.scale * numpy.identity(shape[0]))


class _Constant(Initializer):
    # Shared fill for Constant and the fixed-value initializers, which set ``fill_value``
    # as a class attribute.
    fill_value: Any = None

    def __call__(self, array: Any) -> None:
        self._check_dtype(array)
        assign(array, self.fill_value)


class Constant(_Constant):
    """Initializes array with constant value.

    Args:
        fill_value: A scalar, or an array (NumPy, CuPy or ChainerX) broadcast to the shape of
            the array to fill.
        dtype: Dtype the arrays to fill must have (``None`` accepts any).

    Example:
        >>> w = numpy.empty((2, 3), numpy.float32)
        >>> chainer.initializers.Constant(numpy.array([1, 2, 3]))(w)  # every row is [1, 2, 3]
    """

    def __init__(self, fill_value: Any, dtype: Any | None = None) -> None:
        if not (is_scalar(fill_value) or is_array(fill_value)):
            raise ValueError(
                "fill_value must be a scalar, numpy.ndarray, cupy.ndarray or chainerx.ndarray, "
                f"got {type(fill_value).__name__}"
            )
        self.fill_value = fill_value
        super().__init__(dtype)


class Zero(_Constant):
    """Initializes array to all-zero.

    Args:
        dtype: Dtype the arrays to fill must have (``None`` accepts any).
    """

    fill_value = 0


class One(_Constant):
    """Initializes array to all-one.

    Args:
        dtype: Dtype the arrays to fill must have (``None`` accepts any).
    """

    fill_value = 1


class NaN(_Constant):
    """Initializes array to all-NaN.

    Args:
        dtype: Dtype the arrays to fill must have (``None`` accepts any).
    """

    fill_value = numpy.nan
