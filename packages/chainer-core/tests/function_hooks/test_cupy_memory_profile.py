"""CupyMemoryProfileHook: bytes used and acquired per call, on a fake CuPy pool and real CUDA."""

import io

import numpy
import pytest

from chainer import Variable
from chainer.backends import cuda
from chainer.function_hooks import CupyMemoryProfileHook

# Bytes each pass takes from the pool, and whether the pool must get them from the device.
REQUESTS = {
    "Outer.forward": (1024, True),
    "Outer.backward": (512, False),
    "Inner.forward": (3 * 1024**2, True),
}


@pytest.fixture
def profiled(fake_cuda, forward_backward):
    gpu = fake_cuda()

    def work(event):
        gpu.malloc(*REQUESTS[event])

    hook = CupyMemoryProfileHook()
    with hook:
        assert len(gpu.memory_hooks) == 1  # counting only while registered
        forward_backward(work)
    assert gpu.memory_hooks == []
    gpu.malloc(4096, True)  # after the block: not counted
    return hook


def test_without_cuda_creating_the_hook_raises():
    if cuda.available:
        pytest.skip("CUDA is available here")
    with pytest.raises(RuntimeError, match="CupyMemoryProfileHook needs CUDA. CUDA is not"):
        CupyMemoryProfileHook()


def test_call_history_has_used_and_acquired_bytes_and_depth(profiled):
    mib3 = 3 * 1024**2
    assert profiled.call_history == [
        ("Outer", 1024, 1024, 0),
        ("Inner", mib3, mib3, 1),
        ("Outer", 512 + mib3, mib3, 0),  # includes the nested Inner call
    ]


def test_totals_count_only_outermost_calls(profiled):
    assert profiled.total_used_bytes() == 1024 + 512 + 3 * 1024**2
    assert profiled.total_acquired_bytes() == 1024 + 3 * 1024**2


def test_summary_adds_up_per_label(profiled):
    mib3 = 3 * 1024**2
    assert profiled.summary() == {
        "Outer": {"used_bytes": 1024 + 512 + mib3, "acquired_bytes": 1024 + mib3, "occurrence": 2},
        "Inner": {"used_bytes": mib3, "acquired_bytes": mib3, "occurrence": 1},
    }


def test_print_report_auto_unit(profiled):
    out = io.StringIO()
    profiled.print_report(file=out)
    assert out.getvalue() == (
        "FunctionName  UsedBytes  AcquiredBytes  Occurrence\n"
        "       Outer     3.00MB         3.00MB           2\n"
        "       Inner     3.00MB         3.00MB           1\n"
    )


def test_print_report_fixed_unit(profiled):
    out = io.StringIO()
    profiled.print_report(unit="KB", file=out)
    assert out.getvalue().splitlines()[1].split() == ["Outer", "3073.50KB", "3073.00KB", "2"]


def test_print_report_rejects_unknown_unit(profiled):
    with pytest.raises(ValueError, match=r"one of \['B', 'KB', .*'ZB'\], got 'kB'"):
        profiled.print_report(unit="kB", file=io.StringIO())


def test_small_values_are_printed_in_bytes(fake_cuda):
    fake_cuda()
    hook = CupyMemoryProfileHook()
    hook.call_history.append(("F", 100, 0, 0))
    out = io.StringIO()
    hook.print_report(file=out)
    assert out.getvalue().splitlines()[1].split() == ["F", "100.00B", "0.00B", "1"]


@pytest.mark.gpu
@pytest.mark.skipif(not cuda.available, reason="needs a CUDA GPU through CuPy")
def test_real_gpu_forward_uses_pool_memory():
    x = Variable(cuda.cupy.arange(1 << 20, dtype=numpy.float32))
    with CupyMemoryProfileHook() as hook:
        y = x * x
    ((label, used, _acquired, depth),) = hook.call_history
    assert (label, depth) == ("Mul", 0)
    assert used >= y.array.nbytes
