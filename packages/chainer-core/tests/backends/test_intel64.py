"""chainer.backends.intel64: iDeep detection, use levels and Intel64Device (on a fake iDeep)."""

import sys
import types

import numpy
import pytest

import chainer
from chainer import backend
from chainer.backends import _chainerx, intel64
from chainer.backends._cpu import CpuDevice
from chainer.backends.intel64 import Intel64Device
from chainer.device_resident import DeviceResident

INSTALL_HINT = r"pip install 'ideep4py<2\.1'"


@pytest.fixture
def no_ideep(install_modules):
    install_modules({"ideep4py": None})


class Buffers(DeviceResident):
    """A device resident owning a dict of arrays."""

    def __init__(self, **arrays):
        super().__init__()
        self.arrays = arrays

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        for name, array in self.arrays.items():
            self.arrays[name] = visitor.visit_array(array)


# --- iDeep unavailable -----------------------------------------------------------------------


def test_missing_ideep(no_ideep):
    assert intel64.is_ideep_available() is False
    assert intel64.ideep is None
    with pytest.raises(
        RuntimeError, match=rf"iDeep is not available: ideep4py is not installed.*{INSTALL_HINT}"
    ):
        intel64.check_ideep_available()
    for create in (Intel64Device, lambda: backend.get_device("@intel64"), intel64.mdarray):
        with pytest.raises(RuntimeError, match="iDeep is not available"):
            create()
    assert not isinstance(numpy.zeros(1), intel64.mdarray)
    assert intel64.inputs_all_ready([numpy.zeros((2, 2))]) is False
    assert Intel64Device.from_array(numpy.zeros(1)) is None


def test_unsupported_ideep_version(install_modules):
    old = types.ModuleType("ideep4py")
    old.__version__ = "1.0.4"
    install_modules({"ideep4py": old})
    assert intel64.is_ideep_available() is False
    with pytest.raises(
        RuntimeError, match=r"ideep4py 1\.0\.4 is installed, but 2\.0\.x is needed"
    ):
        intel64.check_ideep_available()


def test_unknown_module_attribute():
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        intel64.no_such_name  # noqa: B018


def test_should_use_ideep_validates(no_ideep):
    with pytest.raises(ValueError, match=r"invalid use_ideep level 'always'"):
        intel64.should_use_ideep("always")
    with chainer.using_config("use_ideep", True):
        with pytest.raises(ValueError, match=r"chainer.config.use_ideep value True"):
            intel64.should_use_ideep(">=auto")
    with chainer.using_config("use_ideep", "always"):
        assert intel64.should_use_ideep("==always") is False


# --- on a fake iDeep -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "setting", "expected"),
    [
        ("==always", "always", True),
        ("==always", "auto", False),
        (">=auto", "auto", True),
        (">=auto", "never", False),
    ],
)
def test_should_use_ideep(fake_ideep, level, setting, expected):
    with chainer.using_config("use_ideep", setting):
        assert intel64.should_use_ideep(level) is expected


def test_ideep_is_off_by_default(fake_ideep):
    assert chainer.config.use_ideep == "never"
    assert intel64.should_use_ideep(">=auto") is False


def test_lazy_attributes(fake_ideep):
    assert intel64.ideep is fake_ideep and intel64.mdarray is fake_ideep.mdarray


def test_intel64_device(fake_ideep):
    device = backend.get_device("@intel64")
    assert device == Intel64Device() and hash(device) == hash(Intel64Device())
    assert device.name == "@intel64" and repr(device) == "<Intel64Device @intel64>"
    assert device.xp is numpy and device != CpuDevice()
    assert device.supported_array_types == (numpy.ndarray, fake_ideep.mdarray)


def test_send_makes_mdarrays_where_ideep_helps(fake_ideep):
    device = Intel64Device()
    matrix = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    sent = device.send(matrix)
    assert isinstance(sent, fake_ideep.mdarray) and device.is_array_supported(sent)
    numpy.testing.assert_array_equal(numpy.asarray(sent), matrix)
    assert device.send(sent) is sent
    doubles = numpy.zeros((2, 3))
    assert device.send(doubles) is doubles  # float64: left to NumPy
    cube = numpy.zeros((2, 2, 2), numpy.float32)
    assert device.send(cube) is cube  # 3-d: no iDeep layout
    assert device.is_array_supported(cube) and not device.is_array_supported([1])
    assert device.send(None) is None
    assert Intel64Device.from_array(sent) == device


def test_mdarrays_elsewhere(fake_ideep, fake_chainerx):
    sent = Intel64Device().send(numpy.ones(3, numpy.float32))
    host = CpuDevice().send(sent)
    assert type(host) is numpy.ndarray
    numpy.testing.assert_array_equal(host, [1, 1, 1])
    assert backend.get_device_from_array(sent) == Intel64Device()
    assert backend.get_array_types() == (
        numpy.ndarray,
        fake_ideep.mdarray,
        fake_chainerx.ndarray,
    )
    assert backend.get_cpu_array_types() == backend.get_array_types()
    assert backend.is_arrays_compatible([numpy.zeros(1), sent])
    assert _chainerx.to_chx(sent).device.name == "native:0"


def test_copyto_with_mdarrays(fake_ideep):
    dst = Intel64Device().send(numpy.zeros(3, numpy.float32))
    backend.copyto(dst, numpy.arange(3, dtype=numpy.float32))
    numpy.testing.assert_array_equal(numpy.asarray(dst), [0, 1, 2])
    host = numpy.zeros(3, numpy.float32)
    backend.copyto(host, dst)
    numpy.testing.assert_array_equal(host, [0, 1, 2])


def test_inputs_all_ready(fake_ideep, monkeypatch):
    matrix, image = numpy.zeros((2, 3)), numpy.zeros((1, 2, 3, 4), numpy.float32)
    assert intel64.inputs_all_ready([matrix, image]) is True
    assert intel64.inputs_all_ready([matrix, numpy.zeros(3)]) is False
    assert intel64.inputs_all_ready([numpy.zeros(3)], supported_ndim=(1,)) is True
    assert intel64.inputs_all_ready([matrix, 1.0]) is False

    variable_module = types.ModuleType("chainer.variable")

    class Variable:
        def __init__(self, array):
            self.array = array

    variable_module.Variable = Variable
    monkeypatch.setitem(sys.modules, "chainer.variable", variable_module)
    assert intel64.inputs_all_ready([Variable(matrix), Intel64Device().send(image)]) is True
    assert intel64.inputs_all_ready([Variable(numpy.zeros(3))]) is False


def test_device_resident_to_intel64(fake_ideep):
    weights = numpy.ones((2, 2), numpy.float32)
    buffers = Buffers(weights=weights, counts=numpy.zeros(3, numpy.int32))
    with pytest.warns(DeprecationWarning, match=r"to_intel64\(\) is deprecated"):
        assert buffers.to_intel64() is buffers
    assert buffers.device == Intel64Device() and buffers.xp is numpy
    assert isinstance(buffers.arrays["weights"], fake_ideep.mdarray)
    assert isinstance(buffers.arrays["counts"], numpy.ndarray)
    with pytest.warns(DeprecationWarning, match=r"to_cpu\(\) is deprecated"):
        buffers.to_cpu()
    assert type(buffers.arrays["weights"]) is numpy.ndarray
    numpy.testing.assert_array_equal(buffers.arrays["weights"], weights)


def test_device_resident_to_intel64_needs_ideep(no_ideep):
    with (
        pytest.warns(DeprecationWarning, match=r"to_intel64\(\) is deprecated"),
        pytest.raises(RuntimeError, match="iDeep is not available"),
    ):
        Buffers().to_intel64()
