"""Backend-neutral array helpers the initializers share: recognise arrays and write into them."""

from __future__ import annotations

import numbers
import sys
from types import ModuleType
from typing import Any

import numpy

from chainer._backend import is_loaded_instance

# Array libraries besides NumPy whose arrays an initializer may be handed.
_DEVICE_ARRAY_MODULES = ("cupy", "chainerx")


def _device_array_module(value: Any) -> ModuleType | None:
    # An array of a library can only exist once that library is imported, so looking in
    # sys.modules recognises CuPy and ChainerX arrays without importing either.
    for name in _DEVICE_ARRAY_MODULES:
        if is_loaded_instance(value, name, "ndarray"):
            return sys.modules[name]
    return None


def is_array(value: Any) -> bool:
    """Return whether ``value`` is a NumPy, CuPy or ChainerX array."""
    return isinstance(value, numpy.ndarray) or _device_array_module(value) is not None


def is_scalar(value: Any) -> bool:
    """Return whether ``value`` is a Python or NumPy number (bool included, str excluded)."""
    return isinstance(value, (numbers.Number, numpy.number, numpy.bool_))


def array_module(array: Any) -> ModuleType:
    """Return the array library (numpy, cupy or chainerx) that ``array`` belongs to."""
    if isinstance(array, numpy.ndarray):
        return numpy
    module = _device_array_module(array)
    if module is None:
        raise TypeError(
            "an initializer fills a numpy.ndarray, cupy.ndarray or chainerx.ndarray, "
            f"got {type(array).__name__}"
        )
    return module


def assign(array: Any, values: Any) -> None:
    """Write ``values`` (a scalar or an array of any backend, broadcast) into ``array``."""
    if isinstance(array, numpy.ndarray) and _device_array_module(values) is None:
        array[...] = values
        return
    # Crossing devices or backends is the device layer's job; import it only when needed.
    from chainer import backend

    backend.copyto(array, values if is_array(values) else numpy.asarray(values, array.dtype))


def to_numpy(values: Any) -> numpy.ndarray:
    """Return ``values`` (an array of any backend) as a NumPy array on the host."""
    if _device_array_module(values) is None:
        return numpy.asarray(values)
    from chainer import backend

    return backend.CpuDevice().send(values)
