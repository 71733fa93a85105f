"""Per-thread scratch buffers for the temporaries of the NumPy convolution and pooling kernels.

A kernel's temporaries (im2col columns, a transposed copy of an input, a GEMM result that is
copied on) live only during one call, yet they are the largest arrays of a convnet step.
Fresh ones cost more than their copies: glibc hands arrays of some megabytes back to the OS
when they are freed, and the next call faults every page in again (measured on LeNet at
batch 64: about 3,000 page faults and 4 ms of system time per training step, a quarter of
it). Each thread keeps one buffer per named slot instead, grown to the largest request.

Only memory that never leaves the kernel may come from here: no view of a scratch array may
be returned, and a kernel must not hold two arrays of the same slot at once. Requests above
:data:`MAX_BYTES` get a fresh array, so a thread keeps at most that much per slot.

The arrays that do leave (outputs, gradients) are still fresh: that glibc reuses their memory
between steps instead of faulting it in again is what ``import chainer`` sees to (see
``chainer.backends._host_heap``).
"""

from __future__ import annotations

import itertools
import math
import threading

import numpy

#: The largest buffer kept per slot and thread (bytes); larger requests are not cached.
MAX_BYTES = 16 * 2**20

_buffers = threading.local()


def empty(slot: str, shape: tuple, dtype) -> numpy.ndarray:
    """An uninitialized C-contiguous array in the calling thread's buffer for ``slot``."""
    _stamps.__dict__[slot] = next(_next_stamp)  # what a Kept of the slot held is gone
    dtype = numpy.dtype(dtype)
    nbytes = math.prod(shape) * dtype.itemsize
    if nbytes > MAX_BYTES:
        return numpy.empty(shape, dtype)
    buffers = _buffers.__dict__
    buffer = buffers.get(slot)
    if buffer is None or buffer.size < nbytes:
        buffer = numpy.empty(nbytes, numpy.uint8)
        buffers[slot] = buffer
    return buffer[:nbytes].view(dtype).reshape(shape)


def zeros(slot: str, shape: tuple, dtype) -> numpy.ndarray:
    """:func:`empty`, filled with zeros."""
    array = empty(slot, shape, dtype)
    array.fill(0)
    return array


_stamps = threading.local()  # per thread: slot -> the stamp of its last request
_next_stamp = itertools.count()  # stamps unique across threads


class Kept:
    """A claim on what a scratch slot holds, for reading it back later in the same thread.

    A backward reads back what its forward left in a slot (a convolution's im2col columns,
    which its weight gradient needs again) while no later request for that slot in the
    thread has handed the buffer out again. It costs no memory beyond the slot's.

    :meth:`hold` claims an array that the last :func:`empty` (or :func:`zeros`) of a slot
    returned, once written; :meth:`reclaim` gives it back unchanged, or None when the slot was
    handed out again since, or in another thread. A claim is read back once.
    """

    __slots__ = ("_slot", "_stamp", "_shape", "_dtype")

    def __init__(self) -> None:
        self._slot = None

    def hold(self, slot: str, array: numpy.ndarray) -> None:
        """Claim ``array`` if it is the calling thread's current one of ``slot`` (a larger
        request, which got a fresh array, or another array is not claimed)."""
        buffer = _buffers.__dict__.get(slot)
        if buffer is None or array.nbytes > buffer.nbytes or array.size == 0:
            return
        if array.__array_interface__["data"][0] != buffer.__array_interface__["data"][0]:
            return
        if not array.flags.c_contiguous:
            return
        self._slot, self._stamp = slot, _stamps.__dict__[slot]
        self._shape, self._dtype = array.shape, array.dtype

    def reclaim(self) -> numpy.ndarray | None:
        """The claimed array as :meth:`hold` saw it, or None (see the class)."""
        slot, self._slot = self._slot, None
        if slot is None or _stamps.__dict__.get(slot) != self._stamp:
            return None
        nbytes = math.prod(self._shape) * self._dtype.itemsize
        return _buffers.__dict__[slot][:nbytes].view(self._dtype).reshape(self._shape)
