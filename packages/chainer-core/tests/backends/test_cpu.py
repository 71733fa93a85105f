"""chainer.backends._cpu: CpuDevice and conversion of anything array-like to NumPy."""

import numpy
import pytest

from chainer import backend
from chainer.backends._cpu import CpuDevice, array_to_cpu


def test_cpu_device_identity():
    device = CpuDevice()
    assert device.name == "@numpy" and str(device) == "@numpy"
    assert repr(device) == "<CpuDevice (numpy)>"
    assert device.xp is numpy
    assert device.supported_array_types == (numpy.ndarray,)
    assert device == CpuDevice() and hash(device) == hash(CpuDevice())
    assert device != "@numpy"
    assert backend.get_device("@numpy") == device


def test_from_array():
    assert CpuDevice.from_array(numpy.zeros(1)) == CpuDevice()
    assert CpuDevice.from_array([0.0]) is None
    assert CpuDevice.from_array(numpy.float32(1)) is None


def test_is_array_supported():
    device = CpuDevice()
    assert device.is_array_supported(numpy.zeros((2, 2)))
    assert not device.is_array_supported(numpy.float64(1))
    assert not device.is_array_supported([1, 2])


def test_send_keeps_numpy_arrays_and_converts_scalars():
    device = CpuDevice()
    x = numpy.arange(3)
    assert device.send(x) is x
    assert device.send(None) is None
    for scalar, dtype in [(numpy.float16(2), numpy.float16), (3, int), (True, bool)]:
        converted = device.send(scalar)
        assert isinstance(converted, numpy.ndarray) and converted.shape == ()
        assert converted.dtype == numpy.dtype(dtype) and converted == scalar


def test_array_to_cpu_rejects_non_arrays():
    with pytest.raises(TypeError, match=r"cannot convert to numpy.ndarray: .* got builtins.list"):
        array_to_cpu([1, 2])
    with pytest.raises(TypeError, match=r"got builtins.str"):
        CpuDevice().send("1.0")


def test_v7_private_to_cpu_converts_arrays_and_nested_containers():
    from chainer.backends import _cpu

    x = numpy.arange(4.0)
    assert _cpu._to_cpu(x) is x
    pair = _cpu._to_cpu((x, [numpy.float64(2.0)]))
    assert type(pair) is tuple and pair[0] is x
    assert isinstance(pair[1], list) and isinstance(pair[1][0], numpy.ndarray)
    converted = _cpu._to_cpu(numpy.float32(1.5))
    assert isinstance(converted, numpy.ndarray) and converted.dtype == numpy.float32
    assert converted == 1.5
    with pytest.raises(TypeError, match=r"got builtins.str"):
        _cpu._to_cpu(["1"])
