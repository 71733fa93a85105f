"""Type aliases for annotating code that uses Chainer (``chainer.types``).

They only name types: importing this module imports neither CuPy nor ChainerX (their array
types appear as forward references).
"""

from __future__ import annotations

import numbers
import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, Union

import numpy

if TYPE_CHECKING:  # names for the annotations below, never imported at run time
    import cupy

    import chainerx
    from chainer import backend

__all__ = [
    "TYPE_CHECKING",
    "AbstractInitializer",
    "CudaDeviceSpec",
    "DTypeSpec",
    "DeviceSpec",
    "InitializerSpec",
    "NdArray",
    "ScalarValue",
    "Shape",
    "ShapeSpec",
    "Xp",
]

#: A concrete shape: a tuple of ints.
Shape = tuple[int, ...]

#: What functions accept as a shape: one int or a sequence of ints.
ShapeSpec = int | Sequence[int]

#: What functions accept as a dtype: a dtype, a scalar type or its name.
DTypeSpec = numpy.dtype | type | str

#: Any array Chainer computes with.
NdArray = Union["numpy.ndarray", "cupy.ndarray", "chainerx.ndarray"]

#: A Python or NumPy scalar.
ScalarValue = numpy.generic | bytes | str | memoryview | numbers.Number

#: An array module: ``numpy``, ``cupy`` or ``chainerx``.
Xp = types.ModuleType

#: What selects a CUDA device: a device object or its id.
CudaDeviceSpec = Union["cupy.cuda.Device", int, numpy.integer]

#: What :func:`chainer.get_device` accepts: a device, a spec string (``'@numpy'``,
#: ``'@cupy:0'``, ``'native:0'``), a CUDA device or id, or an array module.
DeviceSpec = Union["backend.Device", "chainerx.Device", CudaDeviceSpec, str]


class AbstractInitializer(Protocol):
    """What an initializer is: a callable filling an array in place, with a ``dtype``."""

    dtype: DTypeSpec | None

    def __call__(self, array: NdArray) -> None: ...


#: What links accept as an initializer: an initializer, a scalar or an array.
InitializerSpec = Union[AbstractInitializer, ScalarValue, "numpy.ndarray"]
