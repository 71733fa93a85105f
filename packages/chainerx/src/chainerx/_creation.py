"""Creation routines that parse their input with NumPy, then copy it to a ChainerX device."""

from collections.abc import Callable, Iterable
from typing import Any

import numpy

from chainerx._core import Device, array, asarray, ndarray


def asanyarray(a: Any, dtype: Any = None, device: Device | str | None = None) -> ndarray:
    """Converts an object to an array (ChainerX has no subclasses, so this is ``asarray``)."""
    return asarray(a, dtype, device)


def frombuffer(
    buffer: Any,
    dtype: Any = float,
    count: int = -1,
    offset: int = 0,
    device: Device | str | None = None,
) -> ndarray:
    """Returns a 1-D array interpretation of a buffer (copied onto the device)."""
    return array(numpy.frombuffer(buffer, dtype, count, offset), device=device)


def fromfile(
    file: Any,
    dtype: Any = float,
    count: int = -1,
    sep: str = "",
    offset: int = 0,
    device: Device | str | None = None,
) -> ndarray:
    """Constructs an array from data in a text or binary file."""
    return array(numpy.fromfile(file, dtype, count, sep, offset), device=device)


def fromfunction(
    function: Callable[..., Any],
    shape: tuple[int, ...],
    *,
    dtype: Any = float,
    device: Device | str | None = None,
    **kwargs: Any,
) -> ndarray:
    """Constructs an array by executing a function over each coordinate."""
    return array(numpy.fromfunction(function, shape, dtype=dtype, **kwargs), device=device)


def fromiter(
    iterable: Iterable[Any], dtype: Any, count: int = -1, device: Device | str | None = None
) -> ndarray:
    """Constructs a new 1-D array initialized from an iterable object."""
    return array(numpy.fromiter(iterable, dtype, count), device=device)


def fromstring(
    string: str,
    dtype: Any = float,
    count: int = -1,
    *,
    sep: str,
    device: Device | str | None = None,
) -> ndarray:
    """Constructs a new 1-D array initialized from text data in a string (``sep`` required)."""
    return array(numpy.fromstring(string, dtype, count, sep=sep), device=device)


def loadtxt(
    fname: Any, dtype: Any = float, *, device: Device | str | None = None, **kwargs: Any
) -> ndarray:
    """Constructs an array by loading data from a text file (``numpy.loadtxt`` arguments)."""
    return array(numpy.loadtxt(fname, dtype, **kwargs), device=device)
