"""Small NumPy-backed stand-ins for CuPy, ChainerX and iDeep.

They implement just the public surface Chainer's device code relies on, so that the code paths
for those backends run (and can fail) on a machine without a GPU or compiled ChainerX. Tests on
the real libraries are marked ``gpu`` / ``chainerx`` and skip when those are unavailable.
"""

import contextlib
import functools
import sys
import types

import numpy
import pytest

from chainer.backends import _chainerx, _cupy_probe, cuda, intel64


@pytest.fixture
def fresh_backends(monkeypatch):
    """Forget every probe of an optional library for the duration of the test."""
    cuda.available  # noqa: B018 (populate, so that monkeypatch restores the real values)
    intel64.ideep  # noqa: B018
    for name in cuda._LAZY_NAMES:
        monkeypatch.delitem(vars(cuda), name)
    for name in ("ideep", "mdarray"):
        monkeypatch.delitem(vars(intel64), name)
    probes = (_cupy_probe.probe, intel64._load_ideep, _chainerx._load)
    for probe in probes:
        probe.cache_clear()
    yield
    for probe in probes:
        probe.cache_clear()


def _install(monkeypatch, modules):
    for name, module in modules.items():
        monkeypatch.setitem(sys.modules, name, module)


def make_fake_cupy(*, is_available=lambda: True, cudnn_version=None, compute_capability="70"):
    cupy = types.ModuleType("cupy")
    current = [0]

    class Device:
        def __init__(self, device=None):
            self.id = current[-1] if device is None else int(device)
            self.compute_capability = compute_capability

        def __enter__(self):
            current.append(self.id)
            return self

        def __exit__(self, *exc_info):
            current.pop()

        def use(self):
            current[-1] = self.id

        def __eq__(self, other):
            return isinstance(other, Device) and other.id == self.id

        def __hash__(self):
            return hash(self.id)

        def __repr__(self):
            return f"<CUDA Device {self.id}>"

    class Stream:
        def __enter__(self):
            return self

        def __exit__(self, *exc_info):
            return None

    class ndarray:
        def __init__(self, data):
            self._data = data
            self.device = Device()

        shape = property(lambda self: self._data.shape)
        dtype = property(lambda self: self._data.dtype)
        ndim = property(lambda self: self._data.ndim)

        def get(self, stream=None):
            return self._data.copy()

        def set(self, array, stream=None):
            self._data[...] = array

        def __array__(self, *args, **kwargs):
            raise TypeError("implicit conversion of a fake cupy.ndarray to NumPy")

    def asarray(obj):
        if isinstance(obj, ndarray) and obj.device.id == current[-1]:
            return obj
        return ndarray(numpy.array(obj._data if isinstance(obj, ndarray) else obj))

    def array(obj, copy=True):
        return ndarray(numpy.array(obj._data if isinstance(obj, ndarray) else obj))

    def empty_like(obj):
        return ndarray(numpy.empty_like(obj._data))

    def empty(shape, dtype):
        return ndarray(numpy.empty(shape, dtype))

    def copyto(dst, src):
        numpy.copyto(dst._data, src._data)

    def kernel(kind):
        return lambda *args, **kwargs: (kind, args, kwargs)

    cupy.cuda = types.ModuleType("cupy.cuda")
    cupy.cuda.Device = Device
    cupy.cuda.Stream = Stream
    cupy.cuda.Event = type("Event", (), {})
    cupy.cuda.get_device_id = lambda: current[-1]
    cupy.ndarray = ndarray
    cupy.is_available = is_available
    cupy.asarray = asarray
    cupy.array = array
    cupy.empty_like = empty_like
    cupy.empty = empty
    cupy.copyto = copyto
    cupy.ElementwiseKernel = kernel("ElementwiseKernel")
    cupy.ReductionKernel = kernel("ReductionKernel")
    cupy.RawKernel = kernel("RawKernel")
    cupy.memoize = lambda for_each_device=False: functools.cache
    cupy.memo_clears = 0

    def clear_memo():
        cupy.memo_clears += 1

    cupy.clear_memo = clear_memo
    cupy.fuse = lambda f, **kwargs: lambda *args: ("fused", f(*args), kwargs)
    cupy.get_default_memory_pool = lambda: "memory pool"
    cupy.get_default_pinned_memory_pool = lambda: "pinned memory pool"
    modules = {"cupy": cupy, "cupy.cuda": cupy.cuda, "cupyx.cudnn": None, "cupy.cudnn": None}
    if cudnn_version is not None:
        cudnn = types.ModuleType("cupyx.cudnn")
        cudnn.DropoutStates = lambda handle, seed: ("dropout states", seed)
        libcudnn = types.ModuleType("cupy_backends.cuda.libs.cudnn")
        libcudnn.getVersion = lambda: cudnn_version
        modules.update({"cupyx.cudnn": cudnn, "cupy_backends.cuda.libs.cudnn": libcudnn})
    return cupy, modules


@pytest.fixture
def install_modules(fresh_backends, monkeypatch):
    """Return a function putting ``{name: module}`` into sys.modules (``None``: not installed)."""
    return lambda modules: _install(monkeypatch, modules)


@pytest.fixture
def install_fake_cupy(fresh_backends, monkeypatch):
    """Return a function installing a fake CuPy; its options are those of make_fake_cupy."""

    def install(**options):
        cupy, modules = make_fake_cupy(**options)
        _install(monkeypatch, modules)
        return cupy

    return install


@pytest.fixture
def fake_cupy(install_fake_cupy):
    """A usable fake CuPy without cuDNN; any device ID is a 'GPU'."""
    return install_fake_cupy()


def make_fake_chainerx():
    chainerx = types.ModuleType("chainerx")

    class Backend:
        def __init__(self, name):
            self.name = name

    class Device:
        def __init__(self, backend_name, index):
            self.backend = Backend(backend_name)
            self.index = index

        name = property(lambda self: f"{self.backend.name}:{self.index}")

        def __eq__(self, other):
            return isinstance(other, Device) and other.name == self.name

        def __hash__(self):
            return hash(self.name)

    devices = {}

    def get_device(*args):
        if len(args) == 1 and isinstance(args[0], Device):
            return args[0]
        if len(args) == 1:
            backend_name, _, index = args[0].partition(":")
            index = int(index or 0)
        else:
            backend_name, index = args
        if backend_name not in ("native", "cuda"):
            raise chainerx.BackendError(f"backend not found: {backend_name!r}")
        return devices.setdefault((backend_name, index), Device(backend_name, index))

    default = [get_device("native", 0)]

    class ndarray:
        def __init__(self, data, device):
            self._data = data
            self.device = device
            self._backprop = False

        shape = property(lambda self: self._data.shape)
        dtype = property(lambda self: self._data.dtype)

        def require_grad(self):
            self._backprop = True
            return self

        def is_backprop_required(self):
            return self._backprop

        def to_device(self, device, index=None):
            target = get_device(device) if index is None else get_device(device, index)
            return ndarray(self._data.copy(), target)

        def __setitem__(self, key, value):
            self._data[key] = value._data

    def asarray(obj, dtype=None, *, device=None):
        return ndarray(numpy.asarray(obj, dtype), get_device(device or default[-1]))

    def to_numpy(array, copy=True):
        return array._data.copy() if copy else array._data

    @contextlib.contextmanager
    def using_device(device):
        default.append(get_device(device))
        try:
            yield
        finally:
            default.pop()

    def set_default_device(device):
        default[-1] = get_device(device)

    chainerx.BackendError = type("BackendError", (Exception,), {})
    chainerx.Device = Device
    chainerx.ndarray = ndarray
    chainerx.get_device = get_device
    chainerx.get_default_device = lambda: default[-1]
    chainerx.set_default_device = set_default_device
    chainerx.using_device = using_device
    chainerx.asarray = asarray
    chainerx.to_numpy = to_numpy
    return chainerx


@pytest.fixture
def fake_chainerx(fresh_backends, monkeypatch):
    """A usable fake ChainerX whose native arrays are NumPy arrays."""
    chainerx = make_fake_chainerx()
    _install(monkeypatch, {"chainerx": chainerx})
    return chainerx


def make_fake_ideep():
    ideep = types.ModuleType("ideep4py")
    ideep.__version__ = "2.0.0.post3"

    class mdarray:
        def __init__(self, array):
            self._data = numpy.array(array)

        shape = property(lambda self: self._data.shape)
        dtype = property(lambda self: self._data.dtype)
        ndim = property(lambda self: self._data.ndim)

        def __array__(self, dtype=None, copy=None):
            return self._data if dtype is None else self._data.astype(dtype)

    def basic_copyto(dst, src):
        numpy.copyto(dst._data, src)

    ideep.mdarray = mdarray
    ideep.basic_copyto = basic_copyto
    return ideep


@pytest.fixture
def fake_ideep(fresh_backends, monkeypatch):
    """A usable fake iDeep (ideep4py 2.0)."""
    ideep = make_fake_ideep()
    _install(monkeypatch, {"ideep4py": ideep})
    return ideep
