"""Device, context and memory management on CuPy; ``GpuDevice`` (``'@cupy:N'``).

Importing this module does not import CuPy. CuPy is probed once, on the first access to one of
``available``, ``cudnn_enabled``, ``cupy``, ``ndarray``, ``Device``, ``Stream``, ``Event``,
``cuda``, ``cudnn``, ``libcudnn``, ``memory_pool`` or ``pinned_memory_pool`` (or the first call
that needs CUDA). CUDA counts as available only when CuPy imports *and* ``cupy.is_available()``
is True. When it is not, ``ndarray``, ``Device``, ``Stream`` and ``Event`` are stand-in classes
(``isinstance`` checks against them are False; creating one raises) and ``cupy`` is a
placeholder whose attributes raise a :class:`RuntimeError` explaining why.

Setting the environment variable ``CHAINER_CUDNN=0`` disables cuDNN.
"""

from __future__ import annotations

import contextlib
import functools
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy

from chainer import _backend  # not `import Device`: cuda.Device is CuPy's device class
from chainer._backend import convert_arrays, is_loaded_instance
from chainer.backends import _cupy_probe
from chainer.backends._cpu import array_to_cpu
from chainer.backends._cudnn import (
    get_cudnn_dropout_states,
    get_cudnn_dropout_states_core,
    get_max_workspace_size,
    set_max_workspace_size,
    should_use_cudnn,
    should_use_cudnn_tensor_core,
)
from chainer.backends._cupy_probe import check_cuda_available
from chainer.configuration import config

__all__ = [
    "Device",
    "DummyDevice",
    "DummyDeviceType",
    "Event",
    "GpuDevice",
    "Stream",
    "available",
    "check_cuda_available",
    "clear_memo",
    "config",
    "copy",
    "cudnn_enabled",
    "cupy",
    "elementwise",
    "fuse",
    "get_array_module",
    "get_cudnn_dropout_states",
    "get_cudnn_dropout_states_core",
    "get_device",
    "get_device_from_array",
    "get_device_from_id",
    "get_max_workspace_size",
    "memoize",
    "ndarray",
    "raw",
    "reduce",
    "set_max_workspace_size",
    "should_use_cudnn",
    "should_use_cudnn_tensor_core",
    "to_cpu",
    "to_gpu",
]


def _cupy() -> Any:
    """The cupy module when CUDA is available, else ``None`` (CuPy ships no type hints)."""
    return _cupy_probe.probe().cupy


# Bound on first access by __getattr__ below, which probes CuPy; declared here for readers.
available: bool  # CuPy imports and sees a CUDA device
cudnn_enabled: bool  # available, with cuDNN, and not disabled by CHAINER_CUDNN=0
cupy: ModuleType  # the cupy module, or a placeholder whose attributes raise
ndarray: type  # cupy.ndarray, or a stand-in
Device: type  # cupy.cuda.Device, or a stand-in
Stream: type  # cupy.cuda.Stream, or a stand-in
Event: type  # cupy.cuda.Event, or a stand-in
cuda: ModuleType | None  # cupy.cuda
cudnn: ModuleType | None  # CuPy's cuDNN wrappers, when cuDNN is enabled
libcudnn: ModuleType | None  # CuPy's raw cuDNN binding, when cuDNN is enabled
memory_pool: Any  # CuPy's default device memory pool
pinned_memory_pool: Any  # CuPy's default pinned host memory pool

_LAZY_NAMES = frozenset(name for name in __annotations__ if not name.startswith("_"))


def __getattr__(name: str):
    if name in _LAZY_NAMES:
        values = _cupy_probe.lazy_values(_cupy_probe.probe())
        # Cache as real module attributes so later accesses cost a plain lookup.
        globals().update(values)
        return values[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _LAZY_NAMES)


class DummyDeviceType:
    """The CuPy-style device of CPU arrays: ``use()`` and ``with`` blocks do nothing.

    :data:`DummyDevice` is the shared instance; :func:`get_device_from_id` with ``None`` and
    :func:`get_device_from_array` with NumPy arrays return it.
    """

    id = -1

    def __int__(self) -> int:
        return -1

    def __enter__(self) -> DummyDeviceType:
        return self

    def __exit__(self, *exc_info) -> None:
        return None

    def use(self) -> None:
        """Do nothing: there is no CUDA device to select."""

    def synchronize(self) -> None:
        """Do nothing: there is no CUDA stream to wait for."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DummyDeviceType)

    def __hash__(self) -> int:
        return hash(DummyDeviceType)

    def __repr__(self) -> str:
        return "<DummyDevice>"


DummyDevice = DummyDeviceType()


def _check_device_id(device_id: Any) -> int:
    if isinstance(device_id, (int, numpy.integer)) and not isinstance(device_id, bool):
        if device_id >= 0:
            return int(device_id)
    raise ValueError(f"invalid CUDA device ID {device_id!r}: expected an integer >= 0")


def _cuda_device(device: Any):
    """Resolve ``None`` (current device), an ID, a ``cupy.cuda.Device`` or a GpuDevice."""
    check_cuda_available()
    cupy = _cupy()
    if device is None:
        return cupy.cuda.Device()
    if isinstance(device, GpuDevice):
        return device.device
    if isinstance(device, cupy.cuda.Device):
        return device
    return cupy.cuda.Device(_check_device_id(device))


class GpuDevice(_backend.Device):
    """Device for the GPU (CuPy) backend; its specifier is ``'@cupy:N'``.

    Args:
        device: The ``cupy.cuda.Device`` to wrap. Use :meth:`from_device_id` for a device ID.
    """

    # Set per instance as CuPy is imported lazily; these shadow the base class properties.
    xp: Any = None
    supported_array_types: tuple[type, ...] = ()

    def __init__(self, device) -> None:
        check_cuda_available()
        cupy = _cupy()
        if not isinstance(device, cupy.cuda.Device):
            raise TypeError(
                f"GpuDevice expects a cupy.cuda.Device, got {type(device).__name__} "
                f"{device!r}; use GpuDevice.from_device_id(N) for a device ID"
            )
        self.device = device
        self.xp = cupy
        self.supported_array_types = (cupy.ndarray,)

    def __repr__(self) -> str:
        return f"<GpuDevice (cupy):{self.device.id}>"  # v7's text

    @staticmethod
    def from_device_id(device_id: int) -> GpuDevice:
        """Return the :class:`GpuDevice` of CUDA device ``device_id`` (an integer >= 0)."""
        device_id = _check_device_id(device_id)
        check_cuda_available()
        return GpuDevice(_cupy().cuda.Device(device_id))

    @staticmethod
    def from_array(array) -> GpuDevice | None:
        """Return the device of a CuPy array, or ``None`` for anything else."""
        if is_loaded_instance(array, "cupy", "ndarray") and array.device is not None:
            return GpuDevice(array.device)
        return None

    @property
    def name(self) -> str:
        return f"@cupy:{self.device.id}"

    def create_context(self):
        """Return a context manager making this CUDA device current in the ``with`` block."""
        return self.xp.cuda.Device(self.device.id)

    def send_array(self, array):
        """Return ``array`` as a CuPy array on this device (copied only when needed)."""
        with self.device:
            return _array_to_gpu(array, self.device, None)

    def use(self) -> None:
        """Make this CUDA device current in this thread."""
        self.device.use()

    def is_array_supported(self, array) -> bool:
        """Return whether ``array`` is a CuPy array on this device."""
        return isinstance(array, self.xp.ndarray) and array.device == self.device


def _array_to_gpu(array, device, stream):
    if array is None:
        return None
    cupy = _cupy()
    if is_loaded_instance(array, "chainerx", "ndarray"):
        from chainer.backends import _chainerx  # it builds on this module

        array = _chainerx.from_chx(array)
    if isinstance(array, cupy.ndarray):
        if array.device.id == device.id:
            return array
        return cupy.array(array, copy=True)  # peer-to-peer copy onto the current device
    host = array_to_cpu(array)
    if stream is None:
        return cupy.asarray(host)
    out = cupy.empty(host.shape, host.dtype)
    out.set(numpy.ascontiguousarray(host), stream)
    return out


def get_device_from_id(device_id: int | None):
    """Return the ``cupy.cuda.Device`` of ``device_id``, or :data:`DummyDevice` for ``None``."""
    if device_id is None:
        return DummyDevice
    device_id = _check_device_id(device_id)
    check_cuda_available()
    return _cupy().cuda.Device(device_id)


def get_device_from_array(*arrays):
    """Return the ``cupy.cuda.Device`` of the first CuPy array, else :data:`DummyDevice`."""
    for array in arrays:
        if is_loaded_instance(array, "cupy", "ndarray") and array.device is not None:
            return array.device
    return DummyDevice


def get_device(*args):
    """Deprecated: use :func:`get_device_from_id` or :func:`get_device_from_array`.

    Returns the CUDA device of the first device ID, CuPy array or ``cupy.cuda.Device`` among
    ``args``, or :data:`DummyDevice`.
    """
    warnings.warn(
        "chainer.backends.cuda.get_device is deprecated: use get_device_from_id, "
        "get_device_from_array or chainer.get_device",
        DeprecationWarning,
        stacklevel=2,
    )
    for arg in args:
        if isinstance(arg, (int, numpy.integer)) and not isinstance(arg, bool):
            return get_device_from_id(arg)
        if is_loaded_instance(arg, "cupy", "ndarray"):
            if arg.device is not None:
                return arg.device
        elif _cupy() is not None and isinstance(arg, _cupy().cuda.Device):
            return arg
    return DummyDevice


def get_array_module(*args) -> ModuleType:
    """Same as :func:`chainer.backend.get_array_module` (kept for old code)."""
    from chainer import backend  # chainer.backend imports this module

    return backend.get_array_module(*args)


def to_cpu(array, stream=None):
    """Copy GPU arrays to the host.

    Args:
        array: An array of any backend, a scalar, ``None``, or a nested list/tuple/dict of them.
        stream: A ``cupy.cuda.Stream`` to copy CuPy arrays on, or ``None``.

    Returns:
        The same structure with :class:`numpy.ndarray` leaves (NumPy arrays are not copied).
    """
    if stream is None:
        return convert_arrays(array, array_to_cpu)

    def convert(item):
        if is_loaded_instance(item, "cupy", "ndarray"):
            with item.device:
                return item.get(stream)
        return array_to_cpu(item)

    return convert_arrays(array, convert)


def to_gpu(array, device=None, stream=None):
    """Copy arrays to a GPU.

    Args:
        array: An array of any backend, a scalar, ``None``, or a nested list/tuple/dict of them.
        device: ``None`` (the current device), a device ID, a ``cupy.cuda.Device`` or a
            :class:`GpuDevice`.
        stream: A ``cupy.cuda.Stream`` to copy host arrays on, or ``None``. Deprecated, as
            in v7 (a :class:`DeprecationWarning`): copy inside ``with stream:`` instead.

    Returns:
        The same structure with CuPy arrays on ``device``; arrays already there are not copied.

    Raises:
        RuntimeError: CUDA is not available.
    """
    if stream is not None:
        warnings.warn(
            "the stream argument of chainer.backends.cuda.to_gpu is deprecated: copy inside "
            "`with stream:` instead",
            DeprecationWarning,
            stacklevel=2,
        )
    target = _cuda_device(device)
    with target:
        return convert_arrays(array, lambda item: _array_to_gpu(item, target, stream))


def copy(array, out=None, out_device=None, stream=None):
    """Copy a CuPy array, possibly to another GPU.

    Args:
        array: The CuPy array to copy.
        out: The CuPy array to copy into; ``None`` allocates one on ``out_device``.
        out_device: Where to allocate ``out`` (``None``: the device of ``array``).
        stream: A ``cupy.cuda.Stream`` to copy on, or ``None``.
    """
    check_cuda_available()
    cupy = _cupy()
    if not isinstance(array, cupy.ndarray):
        raise TypeError(f"cuda.copy expects a cupy.ndarray, got {type(array).__name__}")
    if out is None:
        with array.device if out_device is None else _cuda_device(out_device):
            out = cupy.empty_like(array)
    with array.device, stream if stream is not None else contextlib.nullcontext():
        cupy.copyto(out, array)
    return out


_kernel_cache: dict[tuple, Any] = {}


def _kernel(factory: str, *args: Any, **kwargs: Any):
    check_cuda_available()
    make = getattr(_cupy(), factory)
    key = (factory, args, tuple(sorted(kwargs.items())))
    try:
        return _kernel_cache[key]
    except KeyError:
        kernel = _kernel_cache[key] = make(*args, **kwargs)
        return kernel
    except TypeError:  # unhashable keyword values: build without caching
        return make(*args, **kwargs)


def elementwise(in_params, out_params, operation, name, **kwargs):
    """Return a (cached) ``cupy.ElementwiseKernel``; arguments are CuPy's."""
    return _kernel("ElementwiseKernel", in_params, out_params, operation, name, **kwargs)


def reduce(in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name, **kwargs):
    """Return a (cached) ``cupy.ReductionKernel``; arguments are CuPy's."""
    return _kernel(
        "ReductionKernel",
        in_params,
        out_params,
        map_expr,
        reduce_expr,
        post_map_expr,
        identity,
        name,
        **kwargs,
    )


def raw(code, name, *args, **kwargs):
    """Return a (cached) ``cupy.RawKernel``; arguments are CuPy's."""
    return _kernel("RawKernel", code, name, *args, **kwargs)


def _decide_on_first_call(function: Callable, gpu_version: Callable[[Callable], Callable]):
    # Decorators run at import time; deciding on the first call keeps imports free of CuPy.
    chosen: Callable | None = None

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        nonlocal chosen
        if chosen is None:
            chosen = gpu_version(function) if _cupy() is not None else function
        return chosen(*args, **kwargs)

    return wrapper


def memoize(for_each_device: bool = False):
    """Decorator memoizing a function's results per arguments (and per device) on CUDA.

    Without CUDA the function is called every time, as there is nothing costly to cache.
    """

    def decorator(function: Callable) -> Callable:
        return _decide_on_first_call(function, lambda f: _cupy().memoize(for_each_device)(f))

    return decorator


def clear_memo() -> None:
    """Clear the results memoized by :func:`memoize` and the kernel caches."""
    _kernel_cache.clear()
    if _cupy() is not None:
        _cupy().clear_memo()


def fuse(*args, **kwargs):
    """``cupy.fuse`` when CUDA is available; otherwise the function itself runs.

    Use as ``@fuse`` or ``@fuse(kernel_name=...)``.
    """

    def decorator(function: Callable) -> Callable:
        return _decide_on_first_call(function, lambda f: _cupy().fuse(f, **kwargs))

    if len(args) == 1 and not kwargs and callable(args[0]):
        return decorator(args[0])
    return decorator
