"""chainer.backends._chainerx: ChainerxDevice, to_chx, from_chx (fake and real ChainerX)."""

import copy
import types

import numpy
import pytest

from chainer import backend
from chainer.backends import _chainerx, cuda
from chainer.backends._chainerx import ChainerxDevice, from_chx, to_chx
from chainer.backends._cpu import CpuDevice
from chainer.backends.cuda import GpuDevice
from chainer.device_resident import DeviceResident

INSTALL_HINT = (
    r"install it from a checkout of the Chainer repository, pip install \./packages/chainerx ; "
    r"or from the wheels `nox -s build` puts in dist/, pip install --find-links dist 'chainerx'"
)


class Buffers(DeviceResident):
    """A device resident owning one array."""

    def __init__(self, array):
        super().__init__()
        self.array = array

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.array = visitor.visit_array(self.array)


# --- ChainerX unavailable --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "reason"),
    [
        (None, "the chainerx package is not installed"),
        (types.ModuleType("chainerx"), r"the installed chainerx has no ndarray or Device"),
    ],
    ids=["not-installed", "no-array-core"],
)
def test_unavailable_chainerx_explains_how_to_install(install_modules, module, reason):
    install_modules({"chainerx": module})
    assert _chainerx.is_available() is False
    with pytest.raises(
        RuntimeError, match=rf"ChainerX is not available: {reason}.*{INSTALL_HINT}"
    ):
        _chainerx.chainerx_module()
    with pytest.raises(
        RuntimeError, match=r"cannot create a device for 'native:0': ChainerX is not available"
    ):
        backend.get_device("native:0")
    with pytest.raises(RuntimeError, match="ChainerX is not available"):
        backend.get_device(("cuda", 1))
    with pytest.raises(RuntimeError, match="ChainerX is not available"):
        to_chx(numpy.zeros(1))
    with pytest.raises(RuntimeError, match="ChainerX is not available"):
        ChainerxDevice(object())


def test_chainerx_reporting_itself_unavailable(install_modules, fake_chainerx):
    fake_chainerx.is_available = lambda: False
    assert _chainerx.is_available() is False
    with pytest.raises(RuntimeError, match=r"chainerx.is_available\(\) is False"):
        _chainerx.chainerx_module()


def test_from_chx_passes_other_arrays_through_without_chainerx(install_modules):
    install_modules({"chainerx": None})
    x = numpy.zeros(2)
    assert from_chx(x) is x
    assert from_chx([x, None]) == [x, None]
    with pytest.raises(TypeError, match=r"from_chx expects .* got builtins.str"):
        from_chx("x")


# --- the logic, on a fake ChainerX -----------------------------------------------------------


@pytest.mark.parametrize("spec", ["native:0", "native", ("native", 0)])
def test_get_device_native(fake_chainerx, spec):
    device = backend.get_device(spec)
    assert isinstance(device, ChainerxDevice)
    assert device.name == "native:0" and repr(device) == "<ChainerxDevice native:0>"
    assert device.xp is fake_chainerx
    assert device.supported_array_types == (fake_chainerx.ndarray,)
    assert device.device is fake_chainerx.get_device("native", 0)


def test_get_device_from_chainerx_objects(fake_chainerx):
    chx_device = fake_chainerx.get_device("native", 1)
    assert backend.get_device(chx_device) == ChainerxDevice(chx_device)
    assert hash(backend.get_device("native:1")) == hash(ChainerxDevice(chx_device))
    assert backend.get_device("native:1") != backend.get_device("native:0")
    with pytest.raises(fake_chainerx.BackendError, match="backend not found: 'tpu'"):
        backend.get_device("tpu:0")


def test_chainerx_device_copies_without_copying_chainerx(fake_chainerx):
    buffers = Buffers(numpy.zeros(1)).to_device("native:1")
    clone = copy.deepcopy(buffers)
    assert clone.device == buffers.device and clone.xp is fake_chainerx


def test_chainerx_device_rejects_non_devices(fake_chainerx):
    with pytest.raises(TypeError, match=r"ChainerxDevice expects a chainerx.Device, got str"):
        ChainerxDevice("native:0")


def test_send_to_native_shares_numpy_memory(fake_chainerx):
    device = backend.get_device("native:0")
    host = numpy.arange(3.0)
    sent = device.send(host)
    assert isinstance(sent, fake_chainerx.ndarray) and device.is_array_supported(sent)
    host[0] = 10.0
    numpy.testing.assert_array_equal(fake_chainerx.to_numpy(sent), [10, 1, 2])
    assert device.send(sent) is sent
    moved = backend.get_device("native:1").send(sent)
    assert moved.device.name == "native:1" and not device.is_array_supported(moved)
    assert ChainerxDevice.from_array(moved) == backend.get_device("native:1")
    assert ChainerxDevice.from_array(host) is None


def test_use_and_context(fake_chainerx):
    with backend.using_device("native:2"):
        assert fake_chainerx.get_default_device().name == "native:2"
    assert fake_chainerx.get_default_device().name == "native:0"
    backend.get_device("native:1").use()
    assert fake_chainerx.get_default_device().name == "native:1"


def test_fallback_devices(fake_chainerx):
    assert backend.get_device("native:0").fallback_device == CpuDevice()
    assert ChainerxDevice.from_fallback_device(CpuDevice()).name == "native:0"
    with pytest.raises(TypeError, match=r"<ChainerxDevice native:0> has no ChainerX counterpart"):
        ChainerxDevice.from_fallback_device(backend.get_device("native:0"))


def test_cuda_fallback_needs_cuda(fake_chainerx, install_modules):
    install_modules({"cupy": None})
    with pytest.raises(RuntimeError, match="CUDA is not available"):
        backend.get_device("cuda:0").fallback_device  # noqa: B018


def test_cuda_backend_with_cupy(fake_chainerx, fake_cupy):
    device = backend.get_device("cuda:1")
    assert device.fallback_device == GpuDevice.from_device_id(1)
    assert ChainerxDevice.from_fallback_device(GpuDevice.from_device_id(2)).name == "cuda:2"
    with device.create_context():
        assert fake_cupy.cuda.get_device_id() == 1
        assert fake_chainerx.get_default_device().name == "cuda:1"
    on_gpu = cuda.to_gpu(numpy.arange(3.0), device=2)
    converted = to_chx(on_gpu)
    assert converted.device.name == "cuda:2"
    back = from_chx(converted)
    assert isinstance(back, fake_cupy.ndarray) and back.device.id == 2
    numpy.testing.assert_array_equal(back.get(), [0, 1, 2])
    assert cuda.to_gpu(converted, device=2).device.id == 2
    assert backend.get_array_module(on_gpu, converted) is fake_chainerx


def test_to_chx_and_from_chx_share_native_memory(fake_chainerx):
    host = numpy.zeros(2)
    converted = to_chx({"x": host, "pair": (host, None)})
    assert converted["x"] is converted["pair"][0]  # one array, converted once
    assert converted["x"].device.name == "native:0"
    assert to_chx(converted["x"]) is converted["x"]
    back = from_chx(converted["x"])
    assert back is host
    with pytest.raises(TypeError, match=r"to_chx expects .* got builtins.int"):
        to_chx(3)


def test_from_chx_refuses_arrays_that_require_backprop(fake_chainerx):
    array = to_chx(numpy.zeros(2)).require_grad()
    with pytest.raises(RuntimeError, match=r"requires backprop .*array.as_grad_stopped\(\)"):
        from_chx(array)


def test_backend_functions_on_chainerx_arrays(fake_chainerx):
    array = to_chx(numpy.ones(2))
    assert backend.get_array_module(numpy.zeros(1), array) is fake_chainerx
    assert backend.get_device_from_array(numpy.zeros(1), array) == backend.get_device("native:0")
    assert backend.get_array_types() == (numpy.ndarray, fake_chainerx.ndarray)
    assert backend.get_cpu_array_types() == (numpy.ndarray, fake_chainerx.ndarray)
    assert backend.is_arrays_compatible([array, None, array])
    assert not backend.is_arrays_compatible([array, numpy.ones(2)])
    host = CpuDevice().send(array)
    assert isinstance(host, numpy.ndarray)
    numpy.testing.assert_array_equal(host, [1, 1])


def test_copyto_with_chainerx(fake_chainerx):
    dst = to_chx(numpy.zeros(3))
    backend.copyto(dst, numpy.arange(3.0))
    numpy.testing.assert_array_equal(fake_chainerx.to_numpy(dst), [0, 1, 2])
    host = numpy.zeros(3)
    backend.copyto(host, dst)
    numpy.testing.assert_array_equal(host, [0, 1, 2])


def test_device_resident_to_chx_and_back(fake_chainerx):
    host = numpy.arange(3.0)
    buffers = Buffers(host)
    assert buffers.to_chx() is buffers
    assert buffers.device.name == "native:0" and buffers.xp is fake_chainerx
    assert isinstance(buffers.array, fake_chainerx.ndarray)
    same = buffers.array
    buffers.to_chx()  # already there: nothing moves
    assert buffers.array is same
    assert buffers.from_chx() is buffers
    assert buffers.device == CpuDevice() and buffers.array is host
    buffers.to_device("native:1")
    assert buffers.device.name == "native:1" and buffers.array.device.name == "native:1"
    with pytest.warns(DeprecationWarning, match=r"to_cpu\(\) is deprecated"):
        buffers.to_cpu()
    numpy.testing.assert_array_equal(buffers.array, [0, 1, 2])


class ChxVariable:
    """A stand-in variable recording ChainerX conversions."""

    def __init__(self):
        self.calls = []

    def to_chx(self):
        self.calls.append("to_chx")

    def from_chx(self):
        self.calls.append("from_chx")


class Parent(DeviceResident):
    def __init__(self, variable, child):
        super().__init__()
        self.variable, self.child = variable, child

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        visitor.visit_variable(self.variable)
        self.child.device_resident_accept(visitor)


def test_device_resident_hierarchy_to_chx_and_back(fake_chainerx):
    variable, child = ChxVariable(), Buffers(numpy.zeros(1))
    parent = Parent(variable, child)
    child.to_chx()  # a part already on ChainerX stays as it is
    parent.to_chx()
    assert parent.device.name == child.device.name == "native:0"
    parent.from_chx()
    assert parent.device == child.device == CpuDevice()
    assert variable.calls == ["to_chx", "from_chx"]


# --- real ChainerX ---------------------------------------------------------------------------


@pytest.mark.chainerx
@pytest.mark.skipif(not _chainerx.is_available(), reason="needs a usable chainerx")
def test_real_chainerx_round_trip():
    chainerx = _chainerx.chainerx_module()
    host = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    device = backend.get_device("native:0")
    array = device.send(host)
    assert isinstance(array, chainerx.ndarray) and device.is_array_supported(array)
    assert backend.get_array_module(array) is chainerx
    assert backend.get_device_from_array(array) == device
    numpy.testing.assert_array_equal(from_chx(to_chx(host)), host)
    numpy.testing.assert_array_equal(CpuDevice().send(array), host)
