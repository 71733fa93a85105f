"""Pickling (and ``copy.deepcopy``) of arrays and devices, registered with :mod:`copyreg`.

An array pickles as its data and its device's name, without graphs or gradients (as in v7); a
device pickles as its name and unpickles as the same device of the default context.
"""

import copyreg

import numpy

from chainerx._core import Device, array, get_device, ndarray, to_numpy


def _unpickle_array(data: numpy.ndarray, device_name: str) -> ndarray:
    return array(data, device=device_name)


def _reduce_array(a: ndarray) -> tuple:
    return _unpickle_array, (to_numpy(a), a.device.name)


def _unpickle_device(name: str) -> Device:
    return get_device(name)


def _reduce_device(device: Device) -> tuple:
    return _unpickle_device, (device.name,)


def register() -> None:
    """Registers the reductions of :class:`ndarray` and :class:`Device` with copyreg."""
    copyreg.pickle(ndarray, _reduce_array)
    copyreg.pickle(Device, _reduce_device)
