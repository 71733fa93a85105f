"""Scratch buffers of the CPU convolution kernels: reuse, bounds, threads, and kernels whose
results neither alias them nor change when they are reused."""

import threading

import numpy
import pytest

from chainer.functions import _scratch
from chainer.functions.connection import _conv_batch_last, _conv_nchw

from .conftest import uniform


def test_a_slot_reuses_its_buffer_and_grows():
    a = _scratch.empty("test-a", (4, 5), numpy.float32)
    assert a.shape == (4, 5) and a.dtype == numpy.float32 and a.flags.c_contiguous
    b = _scratch.empty("test-a", (2, 3), numpy.float64)
    assert numpy.shares_memory(a, b)
    c = _scratch.empty("test-a", (100, 100), numpy.float64)
    assert c.shape == (100, 100)
    assert not numpy.shares_memory(a, c)
    assert numpy.shares_memory(c, _scratch.empty("test-a", (3,), numpy.int8))


def test_slots_and_threads_do_not_share():
    a = _scratch.empty("test-b", (8,), numpy.float32)
    assert not numpy.shares_memory(a, _scratch.empty("test-c", (8,), numpy.float32))
    other = []
    thread = threading.Thread(target=lambda: other.append(_scratch.empty("test-b", (8,), "f")))
    thread.start()
    thread.join()
    assert not numpy.shares_memory(a, other[0])


def test_large_requests_are_not_kept(monkeypatch):
    monkeypatch.setattr(_scratch, "MAX_BYTES", 64)
    a = _scratch.empty("test-d", (32,), numpy.float32)
    b = _scratch.empty("test-d", (32,), numpy.float32)
    assert not numpy.shares_memory(a, b)


def test_zeros_clears_what_was_there():
    _scratch.empty("test-e", (6,), numpy.float32).fill(7)
    numpy.testing.assert_array_equal(_scratch.zeros("test-e", (2, 3), numpy.float32), 0)


# (dims, ksize, stride, pad, dilate, groups, outs): padded, 1x1 (the columns are the image
# itself, and col2im gives the columns back), grouped.
GEOMETRIES = [
    ((6, 5), (3, 2), (1, 2), (1, 0), (1, 1), 1, (6, 2)),
    ((4, 4), (1, 1), (1, 1), (0, 0), (1, 1), 1, (4, 4)),
    ((5, 6), (3, 2), (2, 1), (1, 0), (1, 2), 2, (3, 4)),
]


def _run_all(layout, x, W, b, gy, geometry):
    dims, ksize, stride, pad, dilate, groups, outs = geometry
    geo = (stride, pad, dilate, groups)
    return (
        layout.conv(x, W, b, *geo, outs),
        layout.conv_transpose(gy, W, b[: x.shape[1]], *geo, dims),
        layout.conv_weight_grad(x, gy, ksize, *geo),
    )


def _fresh_arrays(monkeypatch):
    monkeypatch.setattr(_scratch, "empty", lambda slot, shape, dtype: numpy.empty(shape, dtype))
    monkeypatch.setattr(_scratch, "zeros", lambda slot, shape, dtype: numpy.zeros(shape, dtype))


@pytest.mark.parametrize("layout", [_conv_nchw, _conv_batch_last], ids=["nchw", "batch_last"])
@pytest.mark.parametrize("geometry", GEOMETRIES)
def test_kernels_results_are_their_own_and_bitwise_those_of_fresh_buffers(
    layout, geometry, monkeypatch
):
    dims, ksize, _, _, _, groups, outs = geometry
    c_in, c_out = 2 * groups, 3 * groups
    inputs = [
        (
            uniform((3, c_in, *dims), numpy.float32),
            uniform((c_out, c_in // groups, *ksize), numpy.float32),
            uniform((c_out,), numpy.float32),
            uniform((3, c_out, *outs), numpy.float32),
        )
        for _ in range(2)
    ]
    first = _run_all(layout, *inputs[0], geometry)
    kept = [a.copy() for a in first]
    second = _run_all(layout, *inputs[1], geometry)  # reuses the scratch buffers
    for got, want in zip(first, kept):
        numpy.testing.assert_array_equal(got, want)
    for a in first:
        assert a.flags.c_contiguous
        assert not any(numpy.may_share_memory(a, b) for b in second)

    _fresh_arrays(monkeypatch)
    for got, want in zip(second, _run_all(layout, *inputs[1], geometry)):
        assert got.tobytes() == want.tobytes()


def test_kept_gives_back_what_the_slot_held_until_the_slot_is_handed_out_again():
    a = _scratch.empty("test-k", (3, 4), numpy.float32)
    a[...] = numpy.arange(12).reshape(3, 4)
    kept = _scratch.Kept()
    kept.hold("test-k", a)
    _scratch.empty("test-other", (5,), numpy.float32)  # another slot does not matter
    back = kept.reclaim()
    assert back.shape == (3, 4) and back.dtype == numpy.float32
    assert numpy.shares_memory(back, a)
    numpy.testing.assert_array_equal(back, numpy.arange(12).reshape(3, 4))
    assert kept.reclaim() is None  # read back once

    kept.hold("test-k", a)
    _scratch.empty("test-k", (2,), numpy.float64)
    assert kept.reclaim() is None


def test_kept_holds_only_the_current_array_of_its_slot():
    small = _scratch.empty("test-l", (4,), numpy.float32)
    for array in (numpy.empty(4, numpy.float32), small[1:], small[::2], small[:0]):
        kept = _scratch.Kept()
        kept.hold("test-l", array)
        assert kept.reclaim() is None
    kept = _scratch.Kept()
    kept.hold("test-never-used", small)
    assert kept.reclaim() is None


def test_kept_is_not_read_back_in_another_thread():
    a = _scratch.empty("test-m", (8,), numpy.float32)
    kept = _scratch.Kept()
    kept.hold("test-m", a)
    got = []

    def other():
        _scratch.empty("test-m", (8,), numpy.float32)  # that thread's own slot
        got.append(kept.reclaim())

    thread = threading.Thread(target=other)
    thread.start()
    thread.join()
    assert got == [None]


def test_kept_is_not_held_for_a_request_above_the_bound(monkeypatch):
    monkeypatch.setattr(_scratch, "MAX_BYTES", 64)
    big = _scratch.empty("test-n", (32,), numpy.float32)  # a fresh array, not the slot's
    kept = _scratch.Kept()
    kept.hold("test-n", big)
    assert kept.reclaim() is None
