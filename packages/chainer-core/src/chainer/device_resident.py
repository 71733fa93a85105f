"""``DeviceResident``: objects whose arrays live on one device and move together.

:class:`chainer.Link` derives from it. A device resident owns arrays, variables and other device
residents; moving it (:meth:`DeviceResident.to_device` and friends) walks that hierarchy with a
:class:`DeviceResidentsVisitor`, which is why a subclass that owns something overrides
:meth:`DeviceResident.device_resident_accept`.
"""

from __future__ import annotations

import warnings
from typing import cast

from chainer import backend
from chainer._backend import Device, is_loaded_instance
from chainer.backends import _chainerx, cuda, intel64
from chainer.backends._chainerx import ChainerxDevice
from chainer.backends._cpu import CpuDevice
from chainer.backends.cuda import GpuDevice
from chainer.backends.intel64 import Intel64Device

__all__ = ["DeviceResident", "DeviceResidentsVisitor"]

# Moving methods a subclass may not override (it overrides device_resident_accept instead).
_FINAL_METHODS = ("to_device", "to_chx", "from_chx")
# Moving methods whose overriding is deprecated but honoured, by the kind of target device.
_LEGACY_METHODS = {CpuDevice: "to_cpu", GpuDevice: "to_gpu", Intel64Device: "to_intel64"}


def _overrides(cls: type, name: str) -> bool:
    return getattr(cls, name) is not getattr(DeviceResident, name)


def _warn_deprecated(name: str, replacement: str) -> None:
    warnings.warn(
        f"{name}() is deprecated (as in Chainer v7); use {replacement} instead",
        DeprecationWarning,
        stacklevel=3,
    )


class DeviceResident:
    """A base class of objects with multi-device hierarchy.

    A new object is on the CPU (``'@numpy'``).

    Example:
        >>> class Buffers(chainer.DeviceResident):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.mean = numpy.zeros(3, numpy.float32)
        ...
        ...     def device_resident_accept(self, visitor):
        ...         super().device_resident_accept(visitor)
        ...         self.mean = visitor.visit_array(self.mean)
        >>> Buffers().to_device('@numpy').mean
        array([0., 0., 0.], dtype=float32)

        With CuPy and a GPU (skipped where there is none), ``mean`` becomes a CuPy array:

        >>> buffers = Buffers().to_device('@cupy:0')  # doctest: +SKIP
    """

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        for name in _FINAL_METHODS:
            if name in cls.__dict__:
                raise TypeError(
                    f"{cls.__name__} overrides {name}(), which a device resident cannot "
                    "override; override device_resident_accept() to move what it owns"
                )
        for name in _LEGACY_METHODS.values():
            if name in cls.__dict__:
                warnings.warn(
                    f"{cls.__name__} overrides {name}(): overriding device-moving methods is "
                    "deprecated (it is still called when the object is moved); override "
                    "device_resident_accept() instead",
                    DeprecationWarning,
                    stacklevel=2,
                )

    def __init__(self) -> None:
        self._device: Device = CpuDevice()

    def device_resident_accept(self, visitor: DeviceResidentsVisitor) -> None:
        """Apply ``visitor`` to this object and everything it owns.

        This base implementation visits only the object itself. A subclass that owns arrays,
        variables or other device residents calls ``super().device_resident_accept(visitor)``
        first, then, for each of them, ``visitor.visit_array`` (storing the array it returns),
        ``visitor.visit_variable`` or ``child.device_resident_accept(visitor)``.
        """
        visitor.visit_device_resident(self)

    @property
    def device(self) -> Device:
        """The :class:`~chainer.backend.Device` this object lives on."""
        return self._device

    @property
    def xp(self):
        """The array module of :attr:`device` (``numpy``, ``cupy`` or ``chainerx``)."""
        return self._device.xp

    def to_cpu(self) -> DeviceResident:
        """Move everything to the CPU (NumPy) and return ``self``.

        .. deprecated:: v7 (a ``DeprecationWarning``): use :meth:`to_device` instead.
        """
        _warn_deprecated("to_cpu", "to_device('@numpy')")
        self.device_resident_accept(_ToDeviceVisitor(CpuDevice(), root=self))
        return self

    def to_gpu(self, device=None) -> DeviceResident:
        """Move to a GPU (CuPy) and return ``self``.

        .. deprecated:: v7 (a ``DeprecationWarning``): use :meth:`to_device` instead.

        Parts already on some GPU stay where they are, as in Chainer before ``to_device``;
        use :meth:`to_device` to move between GPUs.

        Args:
            device: ``None`` (the current CUDA device), a device ID or a ``cupy.cuda.Device``.

        Raises:
            RuntimeError: CUDA is not available.
        """
        _warn_deprecated("to_gpu", "to_device('@cupy:N')")
        target = GpuDevice(cuda._cuda_device(device))
        self.device_resident_accept(_ToDeviceVisitor(target, keep_gpu_residents=True, root=self))
        return self

    def to_intel64(self) -> DeviceResident:
        """Move to the Intel64 (iDeep) device and return ``self``.

        .. deprecated:: v7 (a ``DeprecationWarning``): use :meth:`to_device` instead.

        Raises:
            RuntimeError: iDeep is not available.
        """
        _warn_deprecated("to_intel64", "to_device('@intel64')")
        intel64.check_ideep_available()
        self.device_resident_accept(_ToDeviceVisitor(Intel64Device(), root=self))
        return self

    def to_chx(self) -> DeviceResident:
        """Move to the ChainerX device over the same memory and return ``self``.

        ``'@numpy'`` becomes ``'native:0'`` and ``'@cupy:N'`` becomes ``'cuda:N'``; NumPy arrays
        are shared, not copied. An object already on ChainerX is left as it is.

        Raises:
            RuntimeError: ChainerX is not available.
        """
        _chainerx.chainerx_module()
        if not isinstance(self._device, ChainerxDevice):
            self.device_resident_accept(_ToChxVisitor())
        return self

    def from_chx(self) -> DeviceResident:
        """Move from ChainerX back to NumPy/CuPy over the same memory and return ``self``.

        An object that is not on ChainerX is left as it is.
        """
        if isinstance(self._device, ChainerxDevice):
            self.device_resident_accept(_FromChxVisitor())
        return self

    def to_device(self, device: backend._DeviceSpec) -> DeviceResident:
        """Move to any device and return ``self``.

        Args:
            device: A device specifier accepted by :func:`chainer.get_device`, e.g.
                ``'@numpy'``, ``'@cupy:0'``, ``'@intel64'`` or ``'native:0'``.
        """
        self.device_resident_accept(_ToDeviceVisitor(backend.get_device(device), root=self))
        return self


class DeviceResidentsVisitor:
    """Base class of visitors that visit device resident objects recursively.

    :meth:`DeviceResident.device_resident_accept` calls these methods; a subclass defines
    what happens to each kind of thing.
    """

    def visit_device_resident(self, device_resident: DeviceResident) -> None:
        """Process a device resident (its own state, not what it owns)."""
        raise NotImplementedError(f"{type(self).__name__} does not visit device residents")

    def visit_array(self, arr):
        """Process an array owned by a device resident and return the array to keep."""
        raise NotImplementedError(f"{type(self).__name__} does not visit arrays")

    def visit_variable(self, param) -> None:
        """Process a variable (usually a parameter) owned by a device resident, in place."""
        raise NotImplementedError(f"{type(self).__name__} does not visit variables")


class _ToDeviceVisitor(DeviceResidentsVisitor):
    # keep_gpu_residents: the old to_gpu() left anything already on a GPU in place.
    # root: the object the move started from; a resident below it that overrides the legacy
    # method for the target device (to_cpu/to_gpu/to_intel64) is moved by that method (v7).
    def __init__(
        self, device: Device, keep_gpu_residents: bool = False, root: object = None
    ) -> None:
        self._device = device
        self._keep_gpu = keep_gpu_residents
        self._root = root
        self._legacy_method = _LEGACY_METHODS.get(type(device))

    def visit_device_resident(self, device_resident: DeviceResident) -> None:
        if not (self._keep_gpu and isinstance(device_resident._device, GpuDevice)):
            device_resident._device = self._device
        name = self._legacy_method
        if (
            name is not None
            and device_resident is not self._root
            and _overrides(type(device_resident), name)
        ):
            warnings.warn(
                f"moving {type(device_resident).__name__} through its overridden {name}(), "
                "which is deprecated; override device_resident_accept() instead",
                DeprecationWarning,
                stacklevel=2,
            )
            if name == "to_gpu":
                device_resident.to_gpu(cast("GpuDevice", self._device).device.id)
            else:
                getattr(device_resident, name)()

    def visit_array(self, arr):
        if self._keep_gpu and is_loaded_instance(arr, "cupy", "ndarray"):
            return arr
        return self._device.send(arr)

    def visit_variable(self, param) -> None:
        if not (self._keep_gpu and isinstance(param.device, GpuDevice)):
            param.to_device(self._device)


class _ToChxVisitor(DeviceResidentsVisitor):
    def visit_device_resident(self, device_resident: DeviceResident) -> None:
        if not isinstance(device_resident._device, ChainerxDevice):
            device_resident._device = ChainerxDevice.from_fallback_device(device_resident._device)

    def visit_array(self, arr):
        return _chainerx.to_chx(arr)

    def visit_variable(self, param) -> None:
        param.to_chx()


class _FromChxVisitor(DeviceResidentsVisitor):
    def visit_device_resident(self, device_resident: DeviceResident) -> None:
        if isinstance(device_resident._device, ChainerxDevice):
            device_resident._device = device_resident._device.fallback_device

    def visit_array(self, arr):
        return _chainerx.from_chx(arr)

    def visit_variable(self, param) -> None:
        param.from_chx()
