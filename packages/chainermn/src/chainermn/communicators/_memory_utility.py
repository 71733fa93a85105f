"""Arrays as MPI buffers: host copies of device arrays, byte views, and the float16 sum."""

from __future__ import annotations

import functools

import numpy
from mpi4py import MPI

from chainer import backend


def describe(array) -> str:
    return f"{type(array).__module__}.{type(array).__name__}"


def to_host(array, what: str, rank: int) -> numpy.ndarray:
    """``array`` (NumPy, CuPy or ChainerX) as a C-contiguous NumPy array for MPI.

    Non-contiguous arrays are copied (as in v7); anything that has no fixed-size numeric
    buffer is refused with an error naming the rank.
    """
    if isinstance(array, numpy.ndarray):
        host = array
    elif isinstance(array, numpy.generic):
        host = numpy.asarray(array)
    elif isinstance(array, backend.get_array_types()):
        host = backend.CpuDevice().send(array)
    else:
        raise TypeError(
            f"rank {rank}: {what} must be a NumPy, CuPy or ChainerX array, got "
            f"{describe(array)}; use the *_obj methods for other Python objects"
        )
    if host.dtype.hasobject or host.dtype.kind not in "biufc":
        raise TypeError(
            f"rank {rank}: {what} has dtype {host.dtype}, which has no MPI buffer form; "
            "expected a boolean, integer, float or complex array"
        )
    return numpy.ascontiguousarray(host)


def like(host: numpy.ndarray, reference):
    """``host`` moved to the device of ``reference`` (left on the host for NumPy or None)."""
    if reference is None or isinstance(reference, (numpy.ndarray, numpy.generic)):
        return host
    return backend.get_device_from_array(reference).send(host)


def byte_view(array: numpy.ndarray):
    """A C-contiguous array as an MPI byte buffer."""
    return [array.reshape(-1).view(numpy.uint8), MPI.BYTE]


def array_to_buffer_object(array):
    """An ``[buffer, datatype]`` pair mpi4py accepts for a NumPy array (contiguous copy)."""
    return byte_view(numpy.ascontiguousarray(array))


def _sum_float16(inbuf, inoutbuf, datatype) -> None:
    out = numpy.frombuffer(inoutbuf, numpy.float16)
    # Add in float32 and round once, so each reduction step loses at most half an fp16 ulp.
    out[...] = numpy.frombuffer(inbuf, numpy.float16).astype(numpy.float32) + out
    del datatype


def _mean_of_two(dtype: numpy.dtype, inbuf, inoutbuf, datatype) -> None:
    # (a + b) / 2 with the bits of MPI.SUM's one addition followed by a division: halving
    # is exact. Only valid where each element is one addition: a sum over two ranks.
    out = numpy.frombuffer(inoutbuf, dtype)
    numpy.add(numpy.frombuffer(inbuf, dtype), out, out=out)
    numpy.multiply(out, dtype.type(0.5), out=out)
    del datatype


_USER_OPS: dict = {}


def _user_op(function, *bound) -> MPI.Op:
    """The commutative MPI op of ``function`` with ``bound`` as its first arguments, made
    once (an op is looked up at every average: no new objects on that path)."""
    key = (function, *bound)
    op = _USER_OPS.get(key)
    if op is None:
        op = _USER_OPS[key] = MPI.Op.Create(functools.partial(function, *bound), commute=True)
    return op


def sum_op_and_type(dtype: numpy.dtype):
    """The (op, datatype) pair that sums a buffer of ``dtype`` with MPI."""
    if dtype == numpy.float16:
        return _user_op(_sum_float16), MPI.UINT16_T
    return MPI.SUM, MPI.Datatype.fromcode(dtype.char)


def mean_of_two_op_and_type(dtype: numpy.dtype):
    """The (op, datatype) pair that averages a float32 or float64 buffer over *two* ranks in
    the reduction itself, with NumPy (see :mod:`._mean_choice`)."""
    return _user_op(_mean_of_two, dtype), MPI.Datatype.fromcode(dtype.char)
