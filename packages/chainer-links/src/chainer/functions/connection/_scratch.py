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

import math
import threading

import numpy

#: The largest buffer kept per slot and thread (bytes); larger requests are not cached.
MAX_BYTES = 16 * 2**20

_buffers = threading.local()


def empty(slot: str, shape: tuple, dtype) -> numpy.ndarray:
    """An uninitialized C-contiguous array in the calling thread's buffer for ``slot``."""
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
