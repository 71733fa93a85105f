"""``import chainer`` raises glibc's malloc thresholds: a loop that allocates and frees
several arrays of a megabyte (as a training step does) stops faulting their pages in again.

Run in fresh interpreters: the allocator's state is per process, and the test process has
long imported chainer."""

import platform
import subprocess
import sys
import textwrap

import numpy
import pytest

from chainer.backends import _host_heap

# Four arrays of 1 MiB allocated, written and freed together, ten times: with glibc's starting
# thresholds the heap's freed top (4 MiB) exceeds the trim threshold (twice the largest block
# freed, about 2 MiB) and goes back to the OS each time, so every page faults in again.
LOOP = textwrap.dedent(
    """
    import resource, numpy
    {setup}
    def step():
        arrays = [numpy.empty(2**18, numpy.float32) for _ in range(4)]
        for a in arrays:
            a.fill(1.0)
    step()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(10):
        step()
    print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) // 10)
    """
)


def _faults_per_step(setup: str) -> int:
    code = LOOP.format(setup=setup)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout)


@pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
    reason="glibc's malloc thresholds",
)
def test_import_chainer_stops_the_refaulting_of_freed_arrays():
    without = _faults_per_step("")
    if without < 500:
        pytest.skip(f"this allocator keeps the arrays already ({without} faults per step)")
    assert _faults_per_step("import chainer") < 50
    # The same with the function alone: it is what the import calls.
    assert (
        _faults_per_step(
            "from chainer.backends import _host_heap as h\nh.raise_malloc_thresholds()"
        )
        < 50
    )


def test_the_block_is_allocated_and_freed_untouched(monkeypatch):
    calls = []
    monkeypatch.setattr(
        _host_heap.numpy, "empty", lambda *args: calls.append(args) or numpy.zeros(1)
    )
    _host_heap.raise_malloc_thresholds()
    assert calls == [(_host_heap.THRESHOLD_BYTES, numpy.uint8)]
    assert _host_heap.THRESHOLD_BYTES == 30 * 2**20  # under glibc's 32 MiB ceiling
