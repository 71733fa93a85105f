"""A function whose backward applies another function, and a small fake of CuPy's CUDA API.

The fake implements only what the CUDA hooks call (events, memory hooks, NVTX), so that their
bookkeeping runs on a machine without a GPU; tests on real CuPy are marked ``gpu``.
"""

import sys
import types

import numpy
import pytest

from chainer import FunctionNode, Variable
from chainer.backends import cuda
from chainer.function_hooks import cupy_memory_profile


class Step(FunctionNode):
    """``y = 2 x``. Each pass first calls ``work('<class name>.forward'|'.backward')``;
    backward then applies an ``Inner`` step to the output gradient, so it nests a function
    call. Profiling hooks name functions by class, so the two steps are two classes."""

    def __init__(self, work):
        self._work = work

    @property
    def label(self):
        return type(self).__name__.lower()  # not what the hooks report

    def forward(self, inputs):
        self._work(f"{type(self).__name__}.forward")
        return (inputs[0] * 2,)

    def backward(self, indexes, grad_outputs):
        self._work(f"{type(self).__name__}.backward")
        return Inner(self._work).apply(grad_outputs)


class Outer(Step):
    pass


class Inner(Step):
    pass


@pytest.fixture
def forward_backward():
    """Return ``run(work)``: apply an ``Outer`` Step to [0, 1, 2], backprop, return the input."""

    def run(work):
        x = Variable(numpy.arange(3, dtype=numpy.float32))
        (y,) = Outer(work).apply((x,))
        y.grad = numpy.ones(3, dtype=numpy.float32)
        y.backward()
        return x

    return run


class FakeCuda:
    """State of the fake GPU: a clock in seconds, registered memory hooks, NVTX ranges."""

    def __init__(self):
        self.clock = 0.0
        self.memory_hooks = []
        self.ranges = []  # ('push', name) / ('pop',) in call order
        self.synchronized = 0
        self.cupy = None  # the fake cupy module, once installed

    def malloc(self, nbytes, from_device):
        """Serve ``nbytes`` from the pool, getting fresh device memory when ``from_device``."""
        for hook in self.memory_hooks:
            hook.malloc_preprocess(device_id=0, size=nbytes, mem_size=nbytes)
            if from_device:
                hook.alloc_preprocess(device_id=0, mem_size=nbytes)


def make_fake_cupy(state, nvtx_available=True):
    class MemoryHook:
        name = "MemoryHook"

        def __enter__(self):
            state.memory_hooks.append(self)
            return self

        def __exit__(self, *exc_info):
            state.memory_hooks.remove(self)

    class Event:
        def record(self):
            self.time = state.clock

        def synchronize(self):
            state.synchronized += 1

    class ndarray:
        shape = (3,)
        dtype = numpy.dtype(numpy.float32)

    nvtx = types.ModuleType("cupy.cuda.nvtx")
    nvtx.available = nvtx_available
    nvtx.RangePush = lambda name: state.ranges.append(("push", name))
    nvtx.RangePop = lambda: state.ranges.append(("pop",))
    cupy = types.ModuleType("cupy")
    cupy.ndarray = ndarray
    cupy.cuda = types.SimpleNamespace(
        MemoryHook=MemoryHook,
        Event=Event,
        get_elapsed_time=lambda start, stop: (stop.time - start.time) * 1000,  # in ms
    )
    return cupy, nvtx


@pytest.fixture
def fake_cuda(monkeypatch):
    """Make ``chainer.backends.cuda`` look available, backed by the fake; return its state."""

    def install(nvtx_available=True):
        state = FakeCuda()
        cupy, nvtx = make_fake_cupy(state, nvtx_available)
        state.cupy = cupy
        monkeypatch.setitem(sys.modules, "cupy", cupy)
        monkeypatch.setitem(sys.modules, "cupy.cuda.nvtx", nvtx)
        monkeypatch.setattr(cuda, "check_cuda_available", lambda: None)
        monkeypatch.setattr(cuda, "cupy", cupy, raising=False)
        monkeypatch.setattr(cuda, "Event", cupy.cuda.Event, raising=False)
        return state

    # The memory hook class derives from CuPy's base: build it again from the fake.
    cupy_memory_profile._cumulative_hook_class.cache_clear()
    yield install
    cupy_memory_profile._cumulative_hook_class.cache_clear()
