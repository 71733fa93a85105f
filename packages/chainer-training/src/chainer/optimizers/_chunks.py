"""The in-place CPU kernel driver of the elementwise update rules.

CPU updates run a *kernel*: a function of NumPy arrays that applies the update formula with
ufuncs writing through ``out=`` into the parameter, the state and a few scratch buffers.
:func:`update_in_chunks` feeds it aligned chunks of the flattened arrays. NumPy evaluates one
operation at a time, so a formula applied to whole large arrays would allocate a full-size
temporary per operation and stream every array through main memory once per operation;
chunks that fit in cache, with scratch buffers reused across steps, avoid both. Kernels that
stream their arrays (SGD's, momentum SGD's) take larger chunks (:func:`streaming_kernel`). The
scratch buffers are per thread, dtype and size, so their total size is fixed however large the
model.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy

#: Elements per chunk: 256 KiB per float64 buffer keeps a whole kernel's working set in L2.
CHUNK_SIZE = 1 << 15
#: Arrays up to this many elements that need no float16 staging get one kernel call: below
#: a few hundred KiB per array, the per-chunk Python and ufunc-call overhead costs more than
#: the working set outgrowing L2 (measured: SGD on 78,400 float32 elements 8.7 us whole
#: against 14.4 us in three chunks; Adam 79 against 90 us; equal at 131,072 elements).
SINGLE_CALL_SIZE = 4 * CHUNK_SIZE
#: Elements per chunk of a kernel registered with :func:`streaming_kernel`. Such a kernel
#: reads each element a few times at most, so cache-sized chunks save little memory traffic,
#: and the per-chunk calls cost more (measured, SGD over 1.78 million float32 elements with
#: cold caches: 32,768-element chunks 570-650 us, 262,144 440-500, one NumPy expression over
#: the whole arrays 450; momentum SGD 870-1,060 against 715-970 us).
STREAMING_CHUNK_SIZE = 1 << 18
_STREAMING_KERNELS: set[Callable[..., None]] = set()

_thread_local = threading.local()
_FLOAT16 = numpy.dtype(numpy.float16)
_FLOAT32 = numpy.dtype(numpy.float32)

#: What :meth:`ElementwiseRule._kernel_call` returns: ``(kernel, state keys, scratch count,
#: scalars)``, run as ``update_in_chunks(kernel, param, grad, state, n_scratch, *scalars)``.
KernelCall = tuple[Callable[..., None], tuple[str, ...], int, tuple[Any, ...]]


def streaming_kernel(kernel: Callable[..., None]) -> Callable[..., None]:
    """Register ``kernel`` to run in chunks of :data:`STREAMING_CHUNK_SIZE` elements (on arrays
    in the compute dtype; float16 staging keeps :data:`CHUNK_SIZE`)."""
    _STREAMING_KERNELS.add(kernel)
    return kernel


def compute_dtype(dtype: numpy.dtype) -> numpy.dtype:
    """The dtype the formula is evaluated in: float32 for float16 arrays, else their own."""
    dtype = numpy.dtype(dtype)
    return numpy.dtype(numpy.float32) if dtype == numpy.float16 else dtype


def scratch_pools() -> dict[Any, list[numpy.ndarray]]:
    """This thread's scratch buffers by dtype (and ``(dtype, size)`` for sizes other than
    :data:`SINGLE_CALL_SIZE`). Buffers are only ever added to a pool, so the buffers
    :func:`scratch_buffers` gave stay this thread's as long as this dict is."""
    return _thread_local.__dict__.setdefault("pools", {})


def scratch_buffers(
    dtype: numpy.dtype, count: int, size: int = SINGLE_CALL_SIZE
) -> list[numpy.ndarray]:
    """``count`` buffers of ``size`` elements, this thread's, reused by every update (a kernel
    may overwrite them freely). Each size has a pool of its own."""
    pools = scratch_pools()
    key = dtype if size == SINGLE_CALL_SIZE else (dtype, size)
    buffers = pools.get(key)
    if buffers is None:
        buffers = pools[key] = []
    while len(buffers) < count:
        buffers.append(numpy.empty(size, dtype))
    return buffers[:count]


def update_in_chunks(
    kernel: Callable[..., None],
    param: numpy.ndarray,
    grad: numpy.ndarray,
    state: tuple[numpy.ndarray, ...],
    n_scratch: int,
    *scalars: Any,
) -> None:
    """Run ``kernel(p, g, *state, *scratch, *scalars)`` over aligned chunks, in place.

    The kernel must write its results into the chunks of ``p`` and of the state arrays (and
    may use the ``n_scratch`` scratch chunks freely). Arrays whose dtype differs from
    :func:`compute_dtype` of the parameter (float16 ones) are copied into float32 buffers for
    the kernel and the results rounded back, so float16 updates are computed in float32.
    Non-contiguous parameter or state arrays (views made by hand) cannot be chunked without
    copies; they get one kernel call on whole arrays with full-size scratch instead.

    Args:
        kernel: The update formula over 1-D chunks of equal length.
        param: The parameter array, updated in place.
        grad: Its gradient (read only).
        state: State arrays of the parameter's shape, updated in place.
        n_scratch: Number of scratch chunks the kernel needs.
        *scalars: Trailing arguments passed to the kernel unchanged.
    """
    arrays = (param, grad, *state)
    shape = param.shape
    work = _FLOAT32 if param.dtype == _FLOAT16 else param.dtype
    staged = [a.dtype != work for a in arrays]
    for array in (param, *state):
        if array.shape != shape or not array.flags.c_contiguous:
            _update_whole(kernel, arrays, work, n_scratch, scalars)
            return
    size = param.size
    if not any(staged):
        chunk_size = STREAMING_CHUNK_SIZE if kernel in _STREAMING_KERNELS else CHUNK_SIZE
        single = max(chunk_size, SINGLE_CALL_SIZE)
        scratch = scratch_buffers(work, n_scratch, single)
        _update_unstaged(kernel, arrays, size, scratch, scalars, chunk_size, single)
        return
    # A view for contiguous arrays; a non-contiguous gradient (a broadcast) is copied once.
    flat = [a.reshape(-1) for a in arrays]
    buffers = scratch_buffers(work, n_scratch + sum(staged))
    stage_buffers = iter(buffers[n_scratch:])
    stage = [next(stage_buffers) if needs else None for needs in staged]
    scratch = buffers[:n_scratch]
    for start in range(0, size, CHUNK_SIZE):
        stop = min(start + CHUNK_SIZE, size)
        length = stop - start
        chunks = [a[start:stop] for a in flat]
        args = []
        for chunk, buffer in zip(chunks, stage):
            if buffer is None:
                args.append(chunk)
                continue
            staged_chunk = buffer[:length]
            numpy.copyto(staged_chunk, chunk)
            args.append(staged_chunk)
        kernel(*args, *[s[:length] for s in scratch], *scalars)
        for index, (chunk, buffer) in enumerate(zip(chunks, stage)):
            # Index 1 is the gradient, which the kernel only reads.
            if buffer is not None and index != 1:
                numpy.copyto(chunk, args[index])


def _update_unstaged(kernel, arrays, size, scratch, scalars, chunk_size, single) -> None:
    # Every array is in the compute dtype: the chunks are views, nothing is copied.
    if size <= single:
        # A single call (small and middle-sized parameters): the arrays themselves are the
        # chunk, which saves the per-chunk overhead.
        shape = arrays[0].shape
        kernel(*arrays, *[s[:size].reshape(shape) for s in scratch], *scalars)
        return
    flat = [a.reshape(-1) for a in arrays]
    scratch = [s[:chunk_size] for s in scratch]
    for start in range(0, size, chunk_size):
        stop = start + chunk_size
        if stop > size:
            scratch = [s[: size - start] for s in scratch]
        kernel(*[a[start:stop] for a in flat], *scratch, *scalars)


def _update_whole(kernel, arrays, work, n_scratch, scalars) -> None:
    shape = arrays[0].shape
    args = [a if a.dtype == work else a.astype(work) for a in arrays]
    scratch = [numpy.empty(shape, work) for _ in range(n_scratch)]
    kernel(*args, *scratch, *scalars)
    for index, (original, used) in enumerate(zip(arrays, args)):
        if used is not original and index != 1:
            numpy.copyto(original, used)
