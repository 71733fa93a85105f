"""The ChainerX backend: ``ChainerxDevice`` (e.g. ``'native:0'``), ``to_chx`` and ``from_chx``.

``chainerx`` is optional and imported on first use. It counts as available when it imports and
provides ``ndarray`` and ``Device`` (a build without its array core does not) and, where it
defines ``chainerx.is_available()``, that returns True.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy

from chainer._backend import Device, convert_arrays, is_loaded_instance
from chainer._siblings import install_hint
from chainer.backends._cpu import CpuDevice, array_to_cpu
from chainer.backends.cuda import GpuDevice

if TYPE_CHECKING:
    import chainerx


@functools.cache
def _load() -> tuple[ModuleType | None, str]:
    """Return ``(chainerx, '')``, or ``(None, reason)`` when ChainerX cannot be used."""
    try:
        import chainerx
    except ModuleNotFoundError as error:
        if error.name == "chainerx":
            return None, "the chainerx package is not installed"
        return None, f"importing chainerx failed: {error}"
    except Exception as error:  # a broken native build surfaces as various error types
        return None, f"importing chainerx failed: {type(error).__name__}: {error}"
    missing = [name for name in ("ndarray", "Device") if not hasattr(chainerx, name)]
    if missing:
        return None, f"the installed chainerx has no {' or '.join(missing)} (no array core)"
    is_available = getattr(chainerx, "is_available", None)
    if is_available is not None and not is_available():
        return None, "chainerx.is_available() is False"
    return chainerx, ""


def is_available() -> bool:
    """Return whether ChainerX can be used."""
    return _load()[0] is not None


def chainerx_module() -> ModuleType:
    """Return the ``chainerx`` module, or raise :class:`RuntimeError` saying why it is unusable."""
    chainerx, reason = _load()
    if chainerx is None:
        raise RuntimeError(
            f"ChainerX is not available: {reason}; install it {install_hint('chainerx')}"
        )
    return chainerx


class ChainerxDevice(Device):
    """Device for the ChainerX backend; its specifier is the ChainerX device name.

    Args:
        device: The ``chainerx.Device`` to wrap, e.g. ``chainerx.get_device('native:0')``.
    """

    # Set per instance as ChainerX is imported lazily; these shadow the base class properties.
    xp: Any = None
    supported_array_types: tuple[type, ...] = ()

    def __init__(self, device: chainerx.Device) -> None:
        chainerx = chainerx_module()
        if not isinstance(device, chainerx.Device):
            raise TypeError(
                f"ChainerxDevice expects a chainerx.Device, got {type(device).__name__} "
                f"{device!r}; use chainer.get_device('native:0') for a device name"
            )
        self.device = device
        self.xp = chainerx
        self.supported_array_types = (chainerx.ndarray,)

    @property
    def name(self) -> str:
        return self.device.name

    @staticmethod
    def from_array(array) -> ChainerxDevice | None:
        """Return the device of a ChainerX array, or ``None`` for anything else."""
        if is_loaded_instance(array, "chainerx", "ndarray") and is_available():
            return ChainerxDevice(array.device)
        return None

    @staticmethod
    def from_fallback_device(device: Device) -> ChainerxDevice:
        """Return the ChainerX device over the same memory as a NumPy or CuPy device.

        ``'@numpy'`` maps to ``'native:0'`` and ``'@cupy:N'`` to ``'cuda:N'``.
        """
        chainerx = chainerx_module()
        if isinstance(device, CpuDevice):
            return ChainerxDevice(chainerx.get_device("native", 0))
        if isinstance(device, GpuDevice):
            return ChainerxDevice(chainerx.get_device("cuda", device.device.id))
        raise TypeError(
            f"{device!r} has no ChainerX counterpart: expected a CpuDevice ('@numpy') or a "
            "GpuDevice ('@cupy:N')"
        )

    @property
    def fallback_device(self) -> Device:
        """The NumPy/CuPy device over the same memory: ``'@numpy'`` or ``'@cupy:N'``."""
        backend_name = self.device.backend.name
        if backend_name == "native":
            return CpuDevice()
        if backend_name == "cuda":
            return GpuDevice.from_device_id(self.device.index)
        raise RuntimeError(f"{self.name} (ChainerX backend {backend_name!r}) has no fallback")

    def create_context(self) -> contextlib.AbstractContextManager:
        """Return a context manager making this the default ChainerX device in the block.

        On the CUDA backend the matching CuPy device becomes current as well.
        """
        if self.device.backend.name == "cuda":
            return self._using_cuda()
        return self.xp.using_device(self.device)  # optimizers enter it per parameter: no wrapper

    @contextlib.contextmanager
    def _using_cuda(self) -> Iterator[None]:
        with self.fallback_device.create_context(), self.xp.using_device(self.device):
            yield

    def send_array(self, array):
        """Return ``array`` as a ChainerX array on this device (``None`` stays ``None``)."""
        return _array_to_chainerx(array, self.device)

    def use(self) -> None:
        """Make this the default ChainerX device of this thread."""
        self.xp.set_default_device(self.device)

    def is_array_supported(self, array) -> bool:
        """Return whether ``array`` is a ChainerX array on this device."""
        return isinstance(array, self.xp.ndarray) and array.device == self.device


def _array_to_chainerx(array, device):
    if array is None:
        return None
    chainerx = chainerx_module()
    if isinstance(array, chainerx.ndarray):
        return array if array.device == device else array.to_device(device)
    # CuPy memory takes a trip through the host: the binding has no raw-pointer import.
    return chainerx.asarray(array_to_cpu(array), device=device)


def _is_fallback_array(array) -> bool:
    return (
        isinstance(array, numpy.ndarray)
        or is_loaded_instance(array, "cupy", "ndarray")
        or is_loaded_instance(array, "ideep4py", "mdarray")
    )


def _to_chx_one(array):
    chainerx = chainerx_module()
    if isinstance(array, chainerx.ndarray):
        return array
    if not _is_fallback_array(array):
        raise TypeError(
            "to_chx expects numpy or cupy ndarrays, iDeep mdarrays or chainerx ndarrays, "
            f"got {type(array).__module__}.{type(array).__name__}"
        )
    if is_loaded_instance(array, "cupy", "ndarray"):
        device = chainerx.get_device("cuda", array.device.id)
    else:
        device = chainerx.get_device("native", 0)
    return _array_to_chainerx(array, device)


def to_chx(array):
    """Convert arrays to ChainerX, on the device over the same memory.

    NumPy and iDeep arrays go to ``'native:0'`` (a NumPy array shares its memory), CuPy arrays
    on GPU N to ``'cuda:N'``; ChainerX arrays are returned as they are.

    Args:
        array: An array, ``None``, or a nested list/tuple/dict of them.

    Raises:
        RuntimeError: ChainerX is not available.
    """
    return convert_arrays(array, _to_chx_one)


def _from_chx_one(array):
    if not is_loaded_instance(array, "chainerx", "ndarray"):
        if _is_fallback_array(array):
            return array
        raise TypeError(
            "from_chx expects chainerx, numpy or cupy ndarrays or iDeep mdarrays, "
            f"got {type(array).__module__}.{type(array).__name__}"
        )
    if array.is_backprop_required():
        raise RuntimeError(
            "cannot convert a chainerx.ndarray that requires backprop to NumPy/CuPy: "
            "convert array.as_grad_stopped() instead"
        )
    chainerx = chainerx_module()
    backend_name = array.device.backend.name
    if backend_name == "native":
        return chainerx.to_numpy(array, copy=False)
    if backend_name == "cuda":
        from chainer.backends import cuda

        host = chainerx.to_numpy(array.to_device(chainerx.get_device("native", 0)), copy=False)
        return cuda.to_gpu(host, device=array.device.index)
    raise RuntimeError(f"arrays on {array.device.name} have no NumPy/CuPy counterpart")


def from_chx(array):
    """Convert ChainerX arrays to NumPy (native backend) or CuPy (CUDA backend) arrays.

    Native arrays share their memory with the result; other arrays are returned as they are.

    Args:
        array: An array, ``None``, or a nested list/tuple/dict of them.

    Raises:
        RuntimeError: A ChainerX array requires backprop.
    """
    return convert_arrays(array, _from_chx_one)
