"""chainer.backends.cuda: CPU behaviour, a fake CuPy for the GPU logic, and real-GPU checks."""

import copy
import subprocess
import sys
import threading

import numpy
import pytest

import chainer
from chainer import backend
from chainer.backends import _cudnn, cuda
from chainer.backends._cpu import CpuDevice
from chainer.backends.cuda import GpuDevice
from chainer.device_resident import DeviceResident


@pytest.fixture
def no_cupy(install_modules):
    install_modules({"cupy": None})


def test_importing_chainer_backends_does_not_import_cupy():
    code = (
        "import sys, chainer.backend, chainer.backends.cuda, chainer.device_resident\n"
        "print(sorted(m for m in ('cupy', 'chainerx', 'ideep4py') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_lazy_names_in_a_fresh_interpreter():
    # No fixture here: the module state is exactly what an import gives.
    code = (
        "import numpy, chainer._backend\n"
        "from chainer.backends import cuda\n"
        "assert cuda.Device is not chainer._backend.Device\n"
        "print(cuda.available, cuda.Device.__name__, isinstance(numpy.ones(1), cuda.ndarray))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [str(cuda.available), "Device", "False"]


# --- CUDA unavailable ------------------------------------------------------------------------


def test_missing_cupy_means_unavailable(no_cupy):
    assert cuda.available is False
    assert cuda.cudnn_enabled is False
    with pytest.raises(RuntimeError, match=r"CUDA is not available: CuPy is not installed\..*"):
        cuda.check_cuda_available()
    with pytest.raises(RuntimeError, match=r"pip install cupy-cuda12x"):
        cuda.check_cuda_available()


def test_cupy_without_gpu_means_unavailable(install_fake_cupy):
    install_fake_cupy(is_available=lambda: False)
    assert cuda.available is False
    with pytest.raises(RuntimeError, match="CuPy is installed but sees no usable CUDA device"):
        cuda.check_cuda_available()


def test_failing_device_query_means_unavailable(install_fake_cupy):
    def broken():
        raise OSError("libcuda.so: cannot open shared object file")

    install_fake_cupy(is_available=broken)
    assert cuda.available is False
    with pytest.raises(RuntimeError, match=r"cupy.is_available\(\) failed: OSError: libcuda"):
        cuda.check_cuda_available()


def test_stand_ins_are_never_instances_and_explain_on_creation(no_cupy):
    for stand_in in (cuda.ndarray, cuda.Device, cuda.Stream, cuda.Event):
        assert not isinstance(numpy.zeros(1), stand_in)
        assert stand_in.__module__ == "chainer.backends.cuda"
        with pytest.raises(RuntimeError, match="CUDA is not available"):
            stand_in()
    assert cuda.ndarray.__name__ == "ndarray"
    assert cuda.memory_pool is None and cuda.cudnn is None


def test_cupy_placeholder_raises_on_use(no_cupy):
    assert repr(cuda.cupy) == "<cupy (unavailable)>"
    with pytest.raises(RuntimeError, match="CUDA is not available: CuPy is not installed"):
        cuda.cupy.zeros(3)
    assert not hasattr(cuda.cupy, "__array_priority__")


def test_unknown_module_attribute():
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        cuda.no_such_name  # noqa: B018
    assert {"available", "cupy", "ndarray"} <= set(dir(cuda))


def test_dummy_device():
    device = cuda.DummyDevice
    assert isinstance(device, cuda.DummyDeviceType)
    assert device.id == -1 and int(device) == -1
    with device as entered:
        assert entered is device
    assert device.use() is None and device.synchronize() is None
    assert device == cuda.DummyDeviceType() and hash(device) == hash(cuda.DummyDeviceType())
    assert device != 0
    assert repr(device) == "<DummyDevice>"


def test_get_device_from_id_none_is_dummy():
    assert cuda.get_device_from_id(None) is cuda.DummyDevice


@pytest.mark.parametrize("bad", [-1, 1.0, "0", True])
def test_get_device_from_id_rejects_bad_ids(bad):
    with pytest.raises(ValueError, match=rf"invalid CUDA device ID {bad!r}: expected an integer"):
        cuda.get_device_from_id(bad)


def test_get_device_from_id_needs_cuda(no_cupy):
    with pytest.raises(RuntimeError, match="CUDA is not available"):
        cuda.get_device_from_id(0)


def test_get_device_from_array_of_cpu_arrays_is_dummy():
    assert cuda.get_device_from_array(numpy.zeros(2), 3, None) is cuda.DummyDevice
    assert cuda.get_device_from_array() is cuda.DummyDevice


def test_deprecated_get_device():
    with pytest.warns(DeprecationWarning, match="get_device is deprecated"):
        assert cuda.get_device(numpy.zeros(1), "x") is cuda.DummyDevice


def test_get_array_module_delegates_to_backend():
    assert cuda.get_array_module(numpy.zeros(1), 1.0) is numpy


def test_to_cpu_returns_numpy_arrays_as_they_are():
    x = numpy.arange(3)
    assert cuda.to_cpu(x) is x
    assert cuda.to_cpu(None) is None


def test_to_cpu_converts_scalars_and_nested_structures():
    x, y = numpy.ones(2), numpy.zeros(3)
    out = cuda.to_cpu([x, (y, 2.5), {"x": x, "none": None}])
    assert out[0] is x and out[1][0] is y and out[2]["x"] is x and out[2]["none"] is None
    assert isinstance(out[1], tuple)
    assert isinstance(out[1][1], numpy.ndarray) and out[1][1] == 2.5
    numpy.testing.assert_array_equal(cuda.to_cpu(numpy.float32(1.5)), numpy.array(1.5, "f"))


def test_to_cpu_rejects_non_arrays():
    with pytest.raises(TypeError, match=r"cannot convert to numpy.ndarray: .* got builtins.str"):
        cuda.to_cpu("abc")


@pytest.mark.parametrize(
    "call",
    [
        lambda: cuda.to_gpu(numpy.zeros(1)),
        lambda: cuda.copy(numpy.zeros(1)),
        lambda: cuda.elementwise("T x", "T y", "y = x", "identity"),
        lambda: cuda.reduce("T x", "T y", "x", "a + b", "y = a", "0", "total"),
        lambda: cuda.raw("extern 'C' __global__ void f() {}", "f"),
        lambda: cuda.get_cudnn_dropout_states(),
        lambda: GpuDevice.from_device_id(0),
        lambda: GpuDevice(object()),
    ],
)
def test_gpu_operations_need_cuda(no_cupy, call):
    with pytest.raises(RuntimeError, match="CUDA is not available: CuPy is not installed"):
        call()


def test_gpu_device_rejects_bad_ids_before_checking_cuda(no_cupy):
    with pytest.raises(ValueError, match="invalid CUDA device ID -2"):
        GpuDevice.from_device_id(-2)
    assert GpuDevice.from_array(numpy.zeros(1)) is None


def test_memoize_without_cuda_calls_through(no_cupy):
    calls = []

    @cuda.memoize(for_each_device=True)
    def square(x):
        """Square."""
        calls.append(x)
        return x * x

    assert square(3) == 9 and square(3) == 9
    assert calls == [3, 3]
    assert square.__name__ == "square" and square.__doc__ == "Square."
    cuda.clear_memo()


def test_fuse_without_cuda_runs_the_function(no_cupy):
    @cuda.fuse
    def add(x, y):
        return x + y

    @cuda.fuse(kernel_name="mul")
    def mul(x, y):
        return x * y

    numpy.testing.assert_array_equal(add(numpy.arange(3), 1), [1, 2, 3])
    numpy.testing.assert_array_equal(mul(numpy.arange(3), 2), [0, 2, 4])
    assert add.__name__ == "add"


def test_workspace_size(monkeypatch):
    monkeypatch.setattr(_cudnn, "_max_workspace_size", _cudnn._max_workspace_size)
    assert cuda.get_max_workspace_size() == 8 * 1024 * 1024
    cuda.set_max_workspace_size(numpy.int64(1024))
    assert cuda.get_max_workspace_size() == 1024
    assert type(cuda.get_max_workspace_size()) is int
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match=rf"integer >= 0 \(bytes\), got {bad!r}"):
            cuda.set_max_workspace_size(bad)


def test_should_use_cudnn_validates_level_and_config(no_cupy):
    with pytest.raises(ValueError, match=r"invalid use_cudnn level '>=always'"):
        cuda.should_use_cudnn(">=always")
    with chainer.using_config("use_cudnn", "sometimes"):
        with pytest.raises(ValueError, match=r"chainer.config.use_cudnn value 'sometimes'"):
            cuda.should_use_cudnn(">=auto")


@pytest.mark.parametrize("setting", ["always", "auto", "never"])
@pytest.mark.parametrize("level", ["==always", ">=auto"])
def test_should_use_cudnn_is_false_without_cudnn(no_cupy, setting, level):
    with chainer.using_config("use_cudnn", setting):
        assert cuda.should_use_cudnn(level) is False


@pytest.mark.parametrize(
    ("level", "setting", "expected"),
    [
        ("==always", "always", True),
        ("==always", "auto", False),
        ("==always", "never", False),
        (">=auto", "always", True),
        (">=auto", "auto", True),
        (">=auto", "never", False),
    ],
)
def test_should_use_cudnn_with_cudnn(install_fake_cupy, level, setting, expected):
    install_fake_cupy(cudnn_version=8000)
    assert cuda.cudnn_enabled is True
    with chainer.using_config("use_cudnn", setting):
        assert cuda.should_use_cudnn(level) is expected
        assert cuda.should_use_cudnn(level, lowest_version=8000) is expected
        assert cuda.should_use_cudnn(level, lowest_version=8001) is False


def test_cudnn_can_be_disabled_by_environment(install_fake_cupy, monkeypatch):
    monkeypatch.setenv("CHAINER_CUDNN", "0")
    install_fake_cupy(cudnn_version=8000)
    assert cuda.available is True and cuda.cudnn_enabled is False


def test_should_use_cudnn_tensor_core_modes(no_cupy):
    with chainer.using_config("use_cudnn_tensor_core", "always"):
        assert cuda.should_use_cudnn_tensor_core(numpy.float32) is True
    with chainer.using_config("use_cudnn_tensor_core", "never"):
        assert cuda.should_use_cudnn_tensor_core(numpy.float16) is False
    with chainer.using_config("use_cudnn_tensor_core", "auto"):
        assert cuda.should_use_cudnn_tensor_core(numpy.float16) is False
    with chainer.using_config("use_cudnn_tensor_core", "yes"):
        with pytest.raises(ValueError, match=r"use_cudnn_tensor_core value 'yes'"):
            cuda.should_use_cudnn_tensor_core(numpy.float16)


@pytest.mark.parametrize(
    ("capability", "dtype", "expected"),
    [("70", numpy.float16, True), ("61", numpy.float16, False), ("70", numpy.float32, False)],
)
def test_should_use_cudnn_tensor_core_auto(install_fake_cupy, capability, dtype, expected):
    install_fake_cupy(cudnn_version=7500, compute_capability=capability)
    assert cuda.should_use_cudnn_tensor_core(dtype) is expected


def test_cudnn_dropout_states(install_fake_cupy, monkeypatch):
    install_fake_cupy()
    with pytest.raises(RuntimeError, match="cuDNN is not enabled"):
        cuda.get_cudnn_dropout_states()


def test_cudnn_dropout_states_are_per_thread_and_seeded(install_fake_cupy, monkeypatch):
    monkeypatch.setattr(_cudnn, "_dropout_states", {})
    monkeypatch.setenv("CHAINER_SEED", "7")
    install_fake_cupy(cudnn_version=8000)
    states = cuda.get_cudnn_dropout_states()
    assert states == ("dropout states", 7)
    assert cuda.get_cudnn_dropout_states() is states
    other = []
    thread = threading.Thread(target=lambda: other.append(cuda.get_cudnn_dropout_states()))
    thread.start()
    thread.join()
    assert other[0] is not states


# --- the GPU logic, on a fake CuPy -----------------------------------------------------------


def test_fake_cupy_is_available(fake_cupy):
    assert cuda.available is True and cuda.cudnn_enabled is False
    assert cuda.cupy is fake_cupy and cuda.ndarray is fake_cupy.ndarray
    assert cuda.Device is fake_cupy.cuda.Device and cuda.Stream is fake_cupy.cuda.Stream
    assert cuda.memory_pool == "memory pool"
    assert cuda.pinned_memory_pool == "pinned memory pool"
    cuda.check_cuda_available()


def test_gpu_device(fake_cupy):
    device = GpuDevice.from_device_id(1)
    assert device.name == "@cupy:1" and str(device) == "@cupy:1"
    assert repr(device) == "<GpuDevice (cupy):1>"
    assert device.xp is fake_cupy
    assert device.supported_array_types == (fake_cupy.ndarray,)
    assert device.device == fake_cupy.cuda.Device(1)
    assert device == GpuDevice(fake_cupy.cuda.Device(1))
    assert hash(device) == hash(GpuDevice.from_device_id(1))
    assert device != GpuDevice.from_device_id(0) and device != CpuDevice()


def test_gpu_device_copies_without_copying_cupy(fake_cupy):
    device = GpuDevice.from_device_id(2)
    clone = copy.deepcopy(device)
    assert clone == device and clone is not device and clone.xp is fake_cupy


def test_gpu_device_rejects_non_devices(fake_cupy):
    with pytest.raises(TypeError, match=r"GpuDevice expects a cupy.cuda.Device, got int 1"):
        GpuDevice(1)


def test_gpu_device_send(fake_cupy):
    device = GpuDevice.from_device_id(1)
    host = numpy.arange(4.0)
    sent = device.send(host)
    assert isinstance(sent, fake_cupy.ndarray) and sent.device.id == 1
    numpy.testing.assert_array_equal(sent.get(), host)
    assert device.send(sent) is sent
    assert device.is_array_supported(sent) and not device.is_array_supported(host)
    moved = GpuDevice.from_device_id(2).send(sent)
    assert moved.device.id == 2
    numpy.testing.assert_array_equal(moved.get(), host)
    assert GpuDevice.from_array(moved) == GpuDevice.from_device_id(2)


def test_gpu_device_use_and_context(fake_cupy):
    with GpuDevice.from_device_id(3).create_context():
        assert fake_cupy.cuda.get_device_id() == 3
    assert fake_cupy.cuda.get_device_id() == 0
    GpuDevice.from_device_id(2).use()
    assert fake_cupy.cuda.get_device_id() == 2


def test_to_gpu_and_back(fake_cupy):
    host = numpy.arange(6.0).reshape(2, 3)
    on_gpu = cuda.to_gpu([host, None, {"a": 1.5}], device=1)
    assert on_gpu[0].device.id == 1 and on_gpu[1] is None
    assert on_gpu[2]["a"].device.id == 1
    back = cuda.to_cpu(on_gpu)
    numpy.testing.assert_array_equal(back[0], host)
    assert float(back[2]["a"]) == 1.5
    assert cuda.to_gpu(host).device.id == 0  # the current device
    assert cuda.to_gpu(host, device=GpuDevice.from_device_id(2)).device.id == 2
    with pytest.raises(ValueError, match="invalid CUDA device ID 'gpu'"):
        cuda.to_gpu(host, device="gpu")


def test_to_gpu_and_to_cpu_with_a_stream(fake_cupy):
    stream = fake_cupy.cuda.Stream()
    with pytest.warns(DeprecationWarning, match="stream argument of .*to_gpu is deprecated"):
        on_gpu = cuda.to_gpu(numpy.arange(3), device=1, stream=stream)
    assert on_gpu.device.id == 1
    numpy.testing.assert_array_equal(cuda.to_cpu([on_gpu], stream=stream)[0], [0, 1, 2])


def test_copy(fake_cupy):
    source = cuda.to_gpu(numpy.arange(3.0), device=1)
    same_device = cuda.copy(source)
    assert same_device is not source and same_device.device.id == 1
    numpy.testing.assert_array_equal(same_device.get(), [0, 1, 2])
    assert cuda.copy(source, out_device=2).device.id == 2
    out = cuda.to_gpu(numpy.zeros(3), device=1)
    assert cuda.copy(source, out=out, stream=fake_cupy.cuda.Stream()) is out
    numpy.testing.assert_array_equal(out.get(), [0, 1, 2])
    with pytest.raises(TypeError, match="cuda.copy expects a cupy.ndarray, got ndarray"):
        cuda.copy(numpy.zeros(1))


def test_device_lookup(fake_cupy):
    assert cuda.get_device_from_id(1) == fake_cupy.cuda.Device(1)
    on_gpu = cuda.to_gpu(numpy.zeros(1), device=2)
    assert cuda.get_device_from_array(numpy.zeros(1), on_gpu) == fake_cupy.cuda.Device(2)
    with pytest.warns(DeprecationWarning):
        assert cuda.get_device(on_gpu).id == 2
    with pytest.warns(DeprecationWarning):
        assert cuda.get_device(1).id == 1
    with pytest.warns(DeprecationWarning):
        assert cuda.get_device(fake_cupy.cuda.Device(3)).id == 3


def test_kernels_are_built_by_cupy_and_cached(fake_cupy):
    kernel = cuda.elementwise("T x", "T y", "y = x", "copy_kernel", preamble="")
    assert kernel == (
        "ElementwiseKernel",
        ("T x", "T y", "y = x", "copy_kernel"),
        {"preamble": ""},
    )
    assert cuda.elementwise("T x", "T y", "y = x", "copy_kernel", preamble="") is kernel
    reduction = cuda.reduce("T x", "T y", "x", "a + b", "y = a", "0", "total")
    assert reduction[0] == "ReductionKernel" and reduction[1][-1] == "total"
    raw = cuda.raw("code", "f", options=["-O3"])  # unhashable option: built, not cached
    assert raw == ("RawKernel", ("code", "f"), {"options": ["-O3"]})
    cuda.clear_memo()
    assert fake_cupy.memo_clears == 1
    assert cuda.elementwise("T x", "T y", "y = x", "copy_kernel", preamble="") is not kernel


def test_memoize_and_fuse_use_cupy(fake_cupy):
    calls = []

    @cuda.memoize()
    def square(x):
        calls.append(x)
        return x * x

    assert square(4) == 16 and square(4) == 16 and calls == [4]

    @cuda.fuse(kernel_name="add")
    def add(x, y):
        return x + y

    assert add(1, 2) == ("fused", 3, {"kernel_name": "add"})


def test_backend_dispatch_on_cupy_arrays(fake_cupy):
    on_gpu = cuda.to_gpu(numpy.ones(2), device=1)
    assert backend.get_array_module(numpy.zeros(1), on_gpu) is fake_cupy
    assert backend.get_device_from_array(numpy.zeros(1), on_gpu) == GpuDevice.from_device_id(1)
    every = backend.get_array_types()
    assert every[:2] == (numpy.ndarray, fake_cupy.ndarray)
    assert set(every[2:]) <= {getattr(sys.modules.get("chainerx"), "ndarray", None)}
    assert backend.get_cpu_array_types()[0] is numpy.ndarray
    assert fake_cupy.ndarray not in backend.get_cpu_array_types()
    assert backend.is_arrays_compatible([on_gpu, None, on_gpu])
    assert not backend.is_arrays_compatible([on_gpu, numpy.ones(2)])
    assert not backend.is_arrays_compatible([numpy.ones(2), on_gpu])
    numpy.testing.assert_array_equal(CpuDevice().send(on_gpu), [1, 1])


@pytest.mark.parametrize(
    ("spec", "device_id"),
    [("@cupy:1", 1), (2, 2), ("0", 0), (numpy.int64(3), 3)],
)
def test_get_device_for_cupy_specs(fake_cupy, spec, device_id):
    assert backend.get_device(spec) == GpuDevice.from_device_id(device_id)


def test_get_device_for_cupy_objects(fake_cupy):
    assert backend.get_device((fake_cupy, 2)).name == "@cupy:2"
    assert backend.get_device(fake_cupy).name == "@cupy:0"  # the current device
    assert backend.get_device(fake_cupy.cuda.Device(1)).name == "@cupy:1"
    with backend.using_device("@cupy:3"):
        assert fake_cupy.cuda.get_device_id() == 3


def test_copyto_across_host_and_gpu(fake_cupy):
    dst = cuda.to_gpu(numpy.zeros(3), device=1)
    backend.copyto(dst, numpy.arange(3.0))
    numpy.testing.assert_array_equal(dst.get(), [0, 1, 2])
    backend.copyto(dst, cuda.to_gpu(numpy.full(3, 5.0), device=2))
    numpy.testing.assert_array_equal(dst.get(), [5, 5, 5])
    host = numpy.zeros(3)
    backend.copyto(host, dst)
    numpy.testing.assert_array_equal(host, [5, 5, 5])


class Holder(DeviceResident):
    """A device resident owning arrays, variables and children."""

    def __init__(self, arrays=(), variables=(), children=()):
        super().__init__()
        self.arrays, self.variables, self.children = list(arrays), variables, children

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.arrays = [visitor.visit_array(array) for array in self.arrays]
        for variable in self.variables:
            visitor.visit_variable(variable)
        for child in self.children:
            child.device_resident_accept(visitor)


class MovingVariable:
    """A stand-in variable whose arrays follow to_device()."""

    def __init__(self, device):
        self.device = device

    def to_device(self, device):
        self.device = device


def test_device_resident_to_gpu(fake_cupy):
    variable = MovingVariable(backend.CpuDevice())
    child = Holder(arrays=[numpy.arange(2.0)])
    root = Holder(variables=[variable], children=[child])
    with pytest.warns(DeprecationWarning, match=r"to_gpu\(\) is deprecated"):
        assert root.to_gpu(1) is root
    assert root.device.name == child.device.name == variable.device.name == "@cupy:1"
    assert root.xp is fake_cupy and child.arrays[0].device.id == 1
    with pytest.warns(DeprecationWarning, match=r"to_gpu\(\) is deprecated"):
        root.to_gpu(2)  # to_gpu leaves what is already on a GPU in place
    assert child.device.name == variable.device.name == "@cupy:1"
    assert child.arrays[0].device.id == 1
    root.to_device("@cupy:2")  # to_device moves between GPUs
    assert child.device.name == variable.device.name == "@cupy:2"
    assert child.arrays[0].device.id == 2
    with fake_cupy.cuda.Device(3):
        with pytest.warns(DeprecationWarning, match=r"to_gpu\(\) is deprecated"):
            assert Holder().to_gpu().device.name == "@cupy:3"
    with pytest.warns(DeprecationWarning, match=r"to_cpu\(\) is deprecated"):
        root.to_cpu()
    assert root.device == backend.CpuDevice() and root.xp is numpy
    numpy.testing.assert_array_equal(child.arrays[0], [0, 1])


# --- a real GPU ------------------------------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.skipif(not cuda.available, reason="needs a CUDA GPU through CuPy")
def test_real_gpu_round_trip():
    host = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    device = backend.get_device("@cupy:0")
    on_gpu = device.send(host)
    assert isinstance(on_gpu, cuda.cupy.ndarray) and device.is_array_supported(on_gpu)
    assert backend.get_array_module(on_gpu) is cuda.cupy
    assert backend.get_device_from_array(on_gpu) == device
    numpy.testing.assert_array_equal(cuda.to_cpu(on_gpu), host)
    numpy.testing.assert_array_equal(CpuDevice().send(cuda.to_gpu(host, device=0)), host)


@pytest.mark.gpu
@pytest.mark.skipif(not cuda.available, reason="needs a CUDA GPU through CuPy")
def test_real_gpu_kernels():
    host = numpy.arange(4, dtype=numpy.float32)
    on_gpu = cuda.to_gpu(host)
    twice = cuda.elementwise("T x", "T y", "y = 2 * x", "chainer_test_twice")(on_gpu)
    numpy.testing.assert_array_equal(cuda.to_cpu(twice), host * 2)
    total = cuda.reduce("T x", "T y", "x", "a + b", "y = a", "0", "chainer_test_sum")(on_gpu)
    assert float(total) == float(host.sum())
    copied = cuda.copy(on_gpu)
    numpy.testing.assert_array_equal(cuda.to_cpu(copied), host)


class _Identity(chainer.FunctionNode):
    def forward(self, inputs):
        return inputs


class _ToGpu(chainer.FunctionNode):
    def forward(self, inputs):
        return inputs[0], cuda.to_gpu(inputs[1])


@pytest.mark.gpu
@pytest.mark.skipif(not cuda.available, reason="needs a CUDA GPU through CuPy")
def test_real_gpu_arrays_mixed_with_numpy_in_a_function_node():
    host = numpy.ones(3, numpy.float32)
    gpu, cpu = chainer.Variable(cuda.to_gpu(host)), chainer.Variable(host)
    with pytest.raises(TypeError, match=r"mixed in the forward input \(_Identity\)"):
        _Identity().apply((gpu, cpu))
    with pytest.raises(TypeError, match=r"mixed in the forward output \(_ToGpu\)"):
        _ToGpu().apply((cpu, chainer.Variable(host)))
    y1, y2 = _Identity().apply((gpu, gpu))  # one kind: fine
    assert isinstance(y1.array, cuda.cupy.ndarray)
