"""The initializer base class (``chainer.Initializer``) and the fan computation it relies on."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy

from chainer._dtypes import get_dtype


class _DtypeMismatchError(ValueError, AssertionError):
    # Chainer reported this mismatch with a bare ``assert``; deriving from AssertionError keeps
    # code that catches that working, while ValueError is what the error actually is.
    pass


class Initializer:
    """Base class of the objects that fill an array with initial values.

    An initializer is called with an existing array and writes the initial values into it in
    place; it returns nothing. Subclasses implement :meth:`__call__`.

    Args:
        dtype: The dtype the arrays to fill must have, or ``None`` to accept any dtype. When used
            through :func:`chainer.initializers.generate_array`, ``None`` means the default
            dtype (``chainer.get_dtype()``) at the time of the call.

    Example:
        >>> class Twos(chainer.Initializer):
        ...     def __call__(self, array):
        ...         array[...] = 2
        >>> w = numpy.empty((2, 3), numpy.float32)
        >>> Twos()(w)
    """

    def __init__(self, dtype: Any | None = None) -> None:
        self.dtype = dtype

    def __call__(self, array: Any) -> None:
        """Fill ``array`` (a NumPy, CuPy or ChainerX array) with initial values in place."""
        raise NotImplementedError(f"{type(self).__name__} does not implement __call__")

    def _check_dtype(self, array: Any) -> None:
        """Raise when ``array`` does not have the dtype this initializer was created for."""
        if self.dtype is None:
            return
        expected = get_dtype(self.dtype)
        if numpy.dtype(array.dtype) != expected:
            raise _DtypeMismatchError(
                f"{type(self).__name__} was created for dtype {expected}, "
                f"but the array to initialize has dtype {numpy.dtype(array.dtype)}"
            )


def get_fans(shape: Sequence[int]) -> tuple[int, int]:
    """Return ``(fan_in, fan_out)`` of a weight array of the given shape.

    The first axis is the output size, the second the input size and the remaining axes form
    the receptive field (as in convolution kernels), so ``fan_in = shape[1] * prod(shape[2:])``
    and ``fan_out = shape[0] * prod(shape[2:])``.

    Args:
        shape: The shape of the weight array, with at least two axes.

    Raises:
        ValueError: ``shape`` is not a tuple or list, or has fewer than two axes.
    """
    if not isinstance(shape, (tuple, list)):
        raise ValueError(f"shape must be a tuple of ints, got {type(shape).__name__}: {shape!r}")
    if len(shape) < 2:
        raise ValueError(f"shape must have at least 2 axes to compute fans, got shape={shape!r}")
    receptive_field = math.prod(shape[2:])
    return shape[1] * receptive_field, shape[0] * receptive_field


def _fan_scale(gain: float, fan: int) -> float:
    """Return ``sqrt(gain / fan)``, the std or bound of the fan-based initializers."""
    # A zero fan only occurs for an empty array, which has nothing to fill.
    return math.sqrt(gain / fan) if fan else 0.0
