"""Utilities that span every backend: device specifiers, array modules and transfers.

:func:`get_device` accepts these device specifiers:

==============================  ==============================================================
``'@numpy'`` or ``numpy``        :class:`CpuDevice`
``'@cupy:N'``, ``(cupy, N)``     :class:`GpuDevice` of CUDA device N (``cupy``: current device)
``'@intel64'``                   :class:`Intel64Device` (needs iDeep)
``'native:0'``, ``'cuda:1'``     :class:`ChainerxDevice` (any ChainerX device name, also
                                 ``'native'`` or a ``(backend_name, index)`` tuple)
an integer N or ``'N'``          old style: N < 0 is ``'@numpy'``, N >= 0 is ``'@cupy:N'``
a device object                  a :class:`Device`, ``chainerx.Device`` or ``cupy.cuda.Device``
==============================  ==============================================================

Nothing here imports CuPy, ChainerX or iDeep: an array of one of those libraries can only exist
once the library is imported, so arrays are classified by looking at ``sys.modules``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from types import ModuleType
from typing import TYPE_CHECKING, Any, Union

import numpy

from chainer._backend import Device, is_loaded_instance, loaded_type
from chainer.backends import _chainerx, cuda, intel64
from chainer.backends._chainerx import ChainerxDevice, from_chx, to_chx
from chainer.backends._cpu import CpuDevice, array_to_cpu
from chainer.backends.cuda import GpuDevice
from chainer.backends.intel64 import Intel64Device

if TYPE_CHECKING:
    import chainerx

__all__ = [
    "ChainerxDevice",
    "CpuDevice",
    "Device",
    "GpuDevice",
    "Intel64Device",
    "copyto",
    "from_chx",
    "get_array_module",
    "get_device",
    "get_device_from_array",
    "to_chx",
    "using_device",
]

_DeviceSpec = Union[
    "Device",
    "chainerx.Device",
    Any,  # a cupy.cuda.Device (CuPy ships no type hints)
    str,
    tuple[str, int],
    ModuleType,
    tuple[ModuleType, int],
]

_ndarray = numpy.ndarray
_CPU = CpuDevice()  # stateless, so one instance serves every lookup
_CUPY_SPEC = re.compile(r"@cupy:(\d+)", re.ASCII)
_LEGACY_ID = re.compile(r"-?\d+", re.ASCII)
_CHAINERX_NAME = re.compile(r"[A-Za-z_]\w*(:\d+)?", re.ASCII)
_ACCEPTED = (
    "expected '@numpy', '@cupy:N', '@intel64', a ChainerX device name such as 'native:0' or "
    "'cuda:0', an integer (negative: NumPy, N >= 0: CuPy device N), numpy or cupy or "
    "(cupy, N), a (backend_name, index) tuple, or a Device, chainerx.Device or "
    "cupy.cuda.Device object"
)


def get_array_module(*args) -> ModuleType:
    """Return the array module (``numpy``, ``cupy`` or ``chainerx``) suited to ``args``.

    ``chainerx`` wins when any argument is a ChainerX array, then ``cupy`` when any is a CuPy
    array; otherwise ``numpy``. Variables count as their ``array``; other objects are ignored.

    Example:
        >>> def softplus(x):
        ...     xp = chainer.backend.get_array_module(x)
        ...     return xp.maximum(0, x) + xp.log1p(xp.exp(-abs(x)))
    """
    for arg in args:
        if type(arg) is not _ndarray:  # NumPy-only calls (the common case) end at this check
            return _array_module_of(args)
    return numpy


def _array_module_of(args) -> ModuleType:
    variable_type = loaded_type("chainer.variable", "Variable")
    chainerx_module: Any = sys.modules.get("chainerx")
    chainerx_ndarray = getattr(chainerx_module, "ndarray", None)
    cupy: Any = sys.modules.get("cupy")
    cupy_ndarray = getattr(cupy, "ndarray", None)
    xp = numpy
    for arg in args:
        if variable_type is not None and isinstance(arg, variable_type):
            arg = arg.array
        if type(arg) is _ndarray:
            continue
        if chainerx_ndarray is not None and isinstance(arg, chainerx_ndarray):
            return chainerx_module
        if cupy_ndarray is not None and isinstance(arg, cupy_ndarray):
            xp = cupy
    return xp


def get_device(device_spec: _DeviceSpec) -> Device:
    """Return the :class:`Device` a device specifier names (see the module docstring).

    Args:
        device_spec: A :class:`Device` (returned as it is) or any accepted specifier.

    Raises:
        ValueError: A malformed specifier string or tuple.
        TypeError: An object of a type that cannot specify a device.
        RuntimeError: The backend it names is not available here.

    Example:
        >>> chainer.get_device('@numpy')
        <CpuDevice (numpy)>
    """
    if isinstance(device_spec, Device):
        return device_spec
    if isinstance(device_spec, str):
        return _device_from_string(device_spec)
    if isinstance(device_spec, (int, numpy.integer)) and not isinstance(device_spec, bool):
        return _device_from_legacy_id(int(device_spec))
    if isinstance(device_spec, ModuleType):
        return _device_from_module(device_spec, None, device_spec)
    if isinstance(device_spec, tuple) and len(device_spec) == 2:
        first, index = device_spec
        if isinstance(first, ModuleType):
            return _device_from_module(first, index, device_spec)
        if isinstance(first, str) and isinstance(index, int) and not isinstance(index, bool):
            return _chainerx_device(device_spec, first, index)
        raise ValueError(f"invalid device specifier {device_spec!r}: {_ACCEPTED}")
    if is_loaded_instance(device_spec, "chainerx", "Device"):
        return ChainerxDevice(device_spec)
    if is_loaded_instance(device_spec, "cupy.cuda", "Device"):
        return GpuDevice(device_spec)
    raise TypeError(
        f"invalid device specifier of type {type(device_spec).__name__}: {device_spec!r}; "
        f"{_ACCEPTED}"
    )


def _device_from_string(spec: str) -> Device:
    if spec == "@numpy":
        return CpuDevice()
    if spec == "@intel64":
        return Intel64Device()
    match = _CUPY_SPEC.fullmatch(spec)
    if match:
        return GpuDevice.from_device_id(int(match.group(1)))
    if _LEGACY_ID.fullmatch(spec):
        return _device_from_legacy_id(int(spec))
    if not spec.startswith("@") and _CHAINERX_NAME.fullmatch(spec):
        return _chainerx_device(spec, spec)
    raise ValueError(f"invalid device specifier {spec!r}: {_ACCEPTED}")


def _device_from_legacy_id(device_id: int) -> Device:
    if device_id < 0:
        return CpuDevice()
    return GpuDevice.from_device_id(device_id)


def _device_from_module(module: ModuleType, index, spec) -> Device:
    if module is numpy and index is None:
        return CpuDevice()
    if module.__name__ == "cupy":
        if index is None:
            return GpuDevice(cuda.Device())  # the current CUDA device
        return GpuDevice.from_device_id(index)
    raise ValueError(f"invalid device specifier {spec!r}: {_ACCEPTED}")


def _chainerx_device(spec, *args) -> ChainerxDevice:
    try:
        chainerx_module = _chainerx.chainerx_module()
    except RuntimeError as error:
        raise RuntimeError(f"cannot create a device for {spec!r}: {error}") from None
    return ChainerxDevice(chainerx_module.get_device(*args))


def using_device(device_spec: _DeviceSpec):
    """Return a context manager that makes the specified device current in its block.

    Example:
        On a machine with two GPUs and CuPy (skipped where there is none):

        >>> with chainer.using_device('@cupy:1'):  # doctest: +SKIP
        ...     y = cupy.ones(3)  # allocated on GPU 1
    """
    return get_device(device_spec).create_context()


def get_device_from_array(*arrays) -> Device:
    """Return the device of the first non-NumPy array among ``arrays``, else :class:`CpuDevice`.

    Example:
        >>> chainer.backend.get_device_from_array(numpy.zeros(3))
        <CpuDevice (numpy)>
    """
    for array in arrays:
        if type(array) is _ndarray:
            continue
        for device_type in (ChainerxDevice, GpuDevice, Intel64Device):
            device = device_type.from_array(array)
            if device is not None:
                return device
    return _CPU


def copyto(dst, src) -> None:
    """Copy the elements of ``src`` into the array ``dst``, across devices if needed.

    Args:
        dst: A NumPy, CuPy or ChainerX array, or an iDeep ``mdarray``.
        src: An array of any backend (or a scalar), broadcast to ``dst``'s shape.
    """
    if isinstance(dst, numpy.ndarray):
        numpy.copyto(dst, array_to_cpu(src))
    elif is_loaded_instance(dst, "chainerx", "ndarray"):
        dst[...] = ChainerxDevice(dst.device).send(src)
    elif is_loaded_instance(dst, "cupy", "ndarray"):
        with dst.device:
            cuda.cupy.copyto(dst, GpuDevice(dst.device).send(src))
    elif is_loaded_instance(dst, "ideep4py", "mdarray"):
        intel64.ideep.basic_copyto(dst, array_to_cpu(src))
    else:
        raise TypeError(
            "copyto: dst must be a numpy, cupy or chainerx ndarray or an iDeep mdarray, "
            f"got {type(dst).__module__}.{type(dst).__name__}"
        )


_array_types_cache: dict[tuple, tuple[tuple[type, ...], tuple[type, ...]]] = {}


def _array_types() -> tuple[tuple[type, ...], tuple[type, ...]]:
    # Keyed by the optional libraries imported so far: importing one later adds its type.
    key = (sys.modules.get("cupy"), sys.modules.get("chainerx"), sys.modules.get("ideep4py"))
    types = _array_types_cache.get(key)
    if types is None:
        every: list[type] = [numpy.ndarray]
        cpu: list[type] = [numpy.ndarray]
        if key[0] is not None and cuda.available:
            every.append(cuda.ndarray)
        if key[2] is not None and intel64.is_ideep_available():
            every.append(intel64.mdarray)
            cpu.append(intel64.mdarray)
        if key[1] is not None and _chainerx.is_available():
            every.append(key[1].ndarray)
            cpu.append(key[1].ndarray)
        types = _array_types_cache[key] = (tuple(every), tuple(cpu))
    return types


def get_array_types() -> tuple[type, ...]:
    """Return the array types Chainer supports here (``chainer.get_array_types``)."""
    return _array_types()[0]


def get_cpu_array_types() -> tuple[type, ...]:
    """Return the supported array types that are not CuPy arrays (``chainer.get_cpu_array_types``).

    That is :class:`numpy.ndarray`, plus iDeep's ``mdarray`` and ``chainerx.ndarray`` when
    those libraries are usable.
    """
    return _array_types()[1]


def is_arrays_compatible(arrays: Iterable) -> bool:
    """Return whether ``arrays`` (``None`` entries ignored) can be used in one computation.

    ChainerX arrays only mix with ChainerX arrays and CuPy arrays with CuPy arrays; NumPy and
    the other CPU array types mix freely.
    """
    arrays = [array for array in arrays if array is not None]
    if not arrays:
        return True
    chainerx_flags = [is_loaded_instance(array, "chainerx", "ndarray") for array in arrays]
    if any(chainerx_flags):
        return all(chainerx_flags)
    if is_loaded_instance(arrays[0], "cupy", "ndarray"):
        types = sys.modules["cupy"].ndarray
    else:
        types = get_cpu_array_types()
    return all(isinstance(array, types) for array in arrays)
