"""The CPU (NumPy) device, ``'@numpy'``, and conversion of any array to NumPy."""

from __future__ import annotations

import numbers

import numpy

from chainer._backend import Device, convert_arrays, is_loaded_instance


class CpuDevice(Device):
    """Device for the CPU (NumPy) backend; its specifier is ``'@numpy'``.

    Example:
        >>> device = chainer.get_device('@numpy')
        >>> device.send(numpy.arange(3))  # a CuPy array would come back as NumPy
        array([0, 1, 2])
    """

    name = "@numpy"
    xp = numpy
    supported_array_types = (numpy.ndarray,)

    @staticmethod
    def from_array(array) -> CpuDevice | None:
        """Return a :class:`CpuDevice` if ``array`` is a NumPy array, else ``None``."""
        return CpuDevice() if isinstance(array, numpy.ndarray) else None

    def send_array(self, array):
        """Return ``array`` as a :class:`numpy.ndarray` (``None`` stays ``None``)."""
        return array_to_cpu(array)

    def is_array_supported(self, array) -> bool:
        """Return whether ``array`` is a :class:`numpy.ndarray`."""
        return isinstance(array, numpy.ndarray)

    def __repr__(self) -> str:
        return "<CpuDevice (numpy)>"  # v7's text


def array_to_cpu(array):
    """Convert a NumPy, CuPy, ChainerX or iDeep array, or a scalar, to a NumPy array.

    NumPy arrays and ``None`` are returned as they are. ChainerX arrays on the native backend
    share their memory with the result.
    """
    if array is None or isinstance(array, numpy.ndarray):
        return array
    if isinstance(array, (numpy.generic, numbers.Number)):
        return numpy.asarray(array)
    if is_loaded_instance(array, "chainerx", "ndarray"):
        # Imported here: the ChainerX module itself builds on CpuDevice.
        from chainer.backends import _chainerx

        array = _chainerx.from_chx(array)
        if isinstance(array, numpy.ndarray):
            return array
    if is_loaded_instance(array, "cupy", "ndarray"):
        with array.device:
            return array.get()
    if is_loaded_instance(array, "ideep4py", "mdarray"):
        return numpy.asarray(array)
    raise TypeError(
        "cannot convert to numpy.ndarray: expected a numpy, cupy or chainerx ndarray, an "
        f"iDeep mdarray, a scalar or None, got {type(array).__module__}.{type(array).__name__}"
    )


def _to_cpu(array):
    """For v7 compatibility: :func:`array_to_cpu` over nested lists/tuples/dicts, as v7's."""
    return convert_arrays(array, array_to_cpu)
