"""chainer.backend and the Device base: device specifiers, dispatch, transfers (CPU)."""

import collections
import copy
import pickle
import sys
import types

import numpy
import pytest

import chainer
from chainer import backend
from chainer._backend import Device
from chainer.backends import _cupy_probe, cuda

API_NAMES = {
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
}

CUDA_API_NAMES = {
    "Device", "DummyDevice", "DummyDeviceType", "Event", "GpuDevice", "Stream", "available",
    "check_cuda_available", "clear_memo", "config", "copy", "cudnn_enabled", "cupy",
    "elementwise", "fuse", "get_array_module", "get_cudnn_dropout_states",
    "get_cudnn_dropout_states_core", "get_device", "get_device_from_array",
    "get_device_from_id", "get_max_workspace_size", "memoize", "ndarray", "raw", "reduce",
    "set_max_workspace_size", "should_use_cudnn", "should_use_cudnn_tensor_core", "to_cpu",
    "to_gpu",
}  # fmt: skip


def test_public_names_match_chainer():
    assert set(backend.__all__) == API_NAMES
    assert all(hasattr(backend, name) for name in API_NAMES)
    assert set(cuda.__all__) == CUDA_API_NAMES
    assert all(hasattr(cuda, name) for name in CUDA_API_NAMES)


def test_top_level_exports():
    from chainer.device_resident import DeviceResident

    assert chainer.DeviceResident is DeviceResident
    for name in ("get_device", "using_device"):
        assert getattr(chainer, name) is getattr(backend, name)
    for name in ("get_array_types", "get_cpu_array_types", "is_arrays_compatible"):
        assert getattr(chainer, name) is getattr(backend, name)
    for name in ("should_use_cudnn", "should_use_cudnn_tensor_core"):
        assert getattr(chainer, name) is getattr(cuda, name)
    assert chainer.backends.cuda is cuda and chainer.cuda is cuda


# --- get_device ------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["@numpy", numpy, -1, "-1", numpy.int32(-3), backend.CpuDevice()])
def test_cpu_specifiers(spec):
    assert backend.get_device(spec) == backend.CpuDevice()


def test_device_objects_are_returned_as_they_are():
    device = backend.CpuDevice()
    assert backend.get_device(device) is device


@pytest.fixture
def no_cuda(monkeypatch):
    not_installed = _cupy_probe.CupyState(None, "CuPy is not installed")
    monkeypatch.setattr(_cupy_probe, "probe", lambda: not_installed)


@pytest.mark.parametrize("spec", ["@cupy:0", "@cupy:3", 0, "2", numpy.int64(1)])
def test_gpu_specifiers_need_cuda(no_cuda, spec):
    with pytest.raises(RuntimeError, match="CUDA is not available: CuPy is not installed"):
        backend.get_device(spec)


def test_cupy_module_specifiers_need_cuda(no_cuda, monkeypatch):
    fake_cupy = types.ModuleType("cupy")
    for spec in (fake_cupy, (fake_cupy, 1)):
        with pytest.raises(RuntimeError, match="CUDA is not available"):
            backend.get_device(spec)


@pytest.mark.parametrize(
    "spec",
    ["", "@", "@numpy:0", "@cupy", "@cupy:", "@cupy:-1", "@cupy:x", "@intel64:0", "@torch",
     "native:", "native:x", ":0", "cuda 0", "0.5", "@cupy:\u0661"],
)  # fmt: skip
def test_malformed_strings(spec):
    with pytest.raises(ValueError, match=rf"invalid device specifier {spec!r}: expected '@numpy'"):
        backend.get_device(spec)


@pytest.mark.parametrize(
    "spec", [(numpy, 0), (sys, 0), sys, ("native", "0"), ("native", True), (1, 2)]
)
def test_malformed_modules_and_tuples(spec):
    with pytest.raises(ValueError, match=r"invalid device specifier .*'@cupy:N', '@intel64'"):
        backend.get_device(spec)


@pytest.mark.parametrize("spec", [None, 1.0, True, ["@numpy"], object()])
def test_objects_that_are_no_specifier(spec):
    with pytest.raises(
        TypeError, match=rf"invalid device specifier of type {type(spec).__name__}: .*native:0"
    ):
        backend.get_device(spec)


def test_using_device_on_cpu():
    with backend.using_device("@numpy") as entered:
        assert entered is None


# --- Device base -----------------------------------------------------------------------------


class Recorder(Device):
    """A minimal concrete device that tags every array it is sent."""

    name = "@recorder"

    def __init__(self):
        self.sent = []

    def send_array(self, array):
        self.sent.append(array)
        return ("sent", array)


def test_abstract_members_name_the_class():
    device = Device()
    for member in ("name", "xp", "supported_array_types"):
        with pytest.raises(NotImplementedError, match=r"Device does not define"):
            getattr(device, member)
    with pytest.raises(NotImplementedError, match="Device cannot send arrays"):
        device.send(numpy.zeros(1))
    with pytest.raises(NotImplementedError, match="Device does not define is_array_supported"):
        device.is_array_supported(numpy.zeros(1))


def test_device_is_not_a_context_manager():
    with pytest.raises(RuntimeError, match=r"<CpuDevice \(numpy\)> is not a context manager: use"):
        with backend.CpuDevice():
            pass


def test_default_context_and_use_do_nothing():
    device = Recorder()
    with device.create_context() as entered:
        assert entered is None
    assert device.use() is None


def test_send_walks_nested_structures_and_keeps_container_types():
    Pair = collections.namedtuple("Pair", "left right")
    shared, other = numpy.zeros(1), numpy.ones(1)
    tree = {
        "list": [shared, None],
        "pair": Pair(shared, other),
        "tuple": (other,),
        "defaults": collections.defaultdict(list, {"x": shared}),
    }
    device = Recorder()
    out = device.send(tree)
    assert out["list"] == [("sent", shared), None]
    assert isinstance(out["pair"], Pair) and out["pair"].right == ("sent", other)
    assert out["pair"].left is out["list"][0]  # one array, sent once
    assert out["tuple"] == (("sent", other),) and type(out["tuple"]) is tuple
    assert isinstance(out["defaults"], collections.defaultdict)
    assert out["defaults"].default_factory is list and out["defaults"]["x"] is out["list"][0]
    assert [id(a) for a in device.sent] == [id(shared), id(other)]
    assert tree["list"] == [shared, None]  # the input is not modified


def test_send_of_a_single_array_and_none():
    device = Recorder()
    x = numpy.zeros(2)
    assert device.send(x) == ("sent", x)
    assert device.send(None) is None


def test_devices_copy_and_pickle_by_name():
    device = backend.CpuDevice()
    for clone in (copy.copy(device), copy.deepcopy(device), pickle.loads(pickle.dumps(device))):
        assert type(clone) is backend.CpuDevice and clone == device


def test_equality_is_by_class_and_name():
    assert Recorder() == Recorder() and hash(Recorder()) == hash(Recorder())
    assert Recorder() != backend.CpuDevice()
    assert repr(Recorder()) == "<Recorder @recorder>"


# --- get_array_module / get_device_from_array ------------------------------------------------


def test_get_array_module_on_cpu():
    assert backend.get_array_module() is numpy
    assert backend.get_array_module(numpy.zeros(1), 1.0, None, [1]) is numpy


def test_get_array_module_sees_arrays_of_loaded_libraries(monkeypatch):
    fake_cupy = types.ModuleType("cupy")
    fake_cupy.ndarray = type("ndarray", (), {})
    fake_chainerx = types.ModuleType("chainerx")
    fake_chainerx.ndarray = type("ndarray", (), {})
    monkeypatch.setitem(sys.modules, "cupy", fake_cupy)
    monkeypatch.setitem(sys.modules, "chainerx", fake_chainerx)
    gpu_array, chx_array = fake_cupy.ndarray(), fake_chainerx.ndarray()
    assert backend.get_array_module(numpy.zeros(1), gpu_array) is fake_cupy
    assert backend.get_array_module(gpu_array, chx_array) is fake_chainerx
    assert backend.get_array_module(chx_array, gpu_array) is fake_chainerx


def test_get_array_module_ignores_chainerx_without_array_core(monkeypatch):
    monkeypatch.setitem(sys.modules, "chainerx", types.ModuleType("chainerx"))
    assert backend.get_array_module(numpy.zeros(1), object()) is numpy


def test_get_array_module_unwraps_variables(monkeypatch):
    fake_cupy = types.ModuleType("cupy")
    fake_cupy.ndarray = type("ndarray", (), {})
    variable_module = types.ModuleType("chainer.variable")

    class Variable:
        def __init__(self, array):
            self.array = array

    variable_module.Variable = Variable
    monkeypatch.setitem(sys.modules, "cupy", fake_cupy)
    monkeypatch.setitem(sys.modules, "chainer.variable", variable_module)
    assert backend.get_array_module(Variable(numpy.zeros(1))) is numpy
    assert backend.get_array_module(Variable(None)) is numpy
    assert backend.get_array_module(Variable(fake_cupy.ndarray())) is fake_cupy


def test_get_device_from_array_on_cpu():
    assert backend.get_device_from_array(numpy.zeros(1)) == backend.CpuDevice()
    assert backend.get_device_from_array() == backend.CpuDevice()
    assert backend.get_device_from_array(None, 1.0) == backend.CpuDevice()


# --- copyto ----------------------------------------------------------------------------------


def test_copyto_numpy():
    dst = numpy.zeros((2, 3), numpy.float32)
    backend.copyto(dst, numpy.arange(3, dtype=numpy.float32))  # broadcast
    numpy.testing.assert_array_equal(dst, [[0, 1, 2], [0, 1, 2]])
    backend.copyto(dst, 4.0)
    numpy.testing.assert_array_equal(dst, numpy.full((2, 3), 4.0))


def test_copyto_errors():
    with pytest.raises(TypeError, match=r"copyto: dst must be .* got builtins.list"):
        backend.copyto([0.0], numpy.zeros(1))
    with pytest.raises(TypeError, match=r"cannot convert to numpy.ndarray: .* got builtins.str"):
        backend.copyto(numpy.zeros(1), "1")


# --- array types -----------------------------------------------------------------------------


def _loaded_chainerx_types() -> tuple:
    # Another test may have imported a working chainerx: its ndarray is then a CPU array type.
    from chainer.backends import _chainerx

    if "chainerx" in sys.modules and _chainerx.is_available():
        return (sys.modules["chainerx"].ndarray,)
    return ()


def test_array_types_on_cpu():
    assert backend.get_array_types() == (numpy.ndarray,) + _loaded_chainerx_types()
    assert backend.get_cpu_array_types() == (numpy.ndarray,) + _loaded_chainerx_types()


def test_is_arrays_compatible_on_cpu():
    assert backend.is_arrays_compatible([])
    assert backend.is_arrays_compatible([None, None])
    assert backend.is_arrays_compatible([numpy.zeros(1), None, numpy.ones(2)])
    assert not backend.is_arrays_compatible([numpy.zeros(1), [1.0]])
    assert backend.is_arrays_compatible(iter([numpy.zeros(1)]))
