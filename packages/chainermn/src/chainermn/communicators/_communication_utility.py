"""MPI building blocks shared by the communicators: node layout, chunked pickled messages."""

from __future__ import annotations

import io
import pickle
import sys

import numpy
from mpi4py import MPI

from chainer import backend

# The largest element count one MPI call takes (counts are C ints).
INT_MAX = 2**31 - 1
# Tag of the point-to-point messages inside chunked_gather_obj (MPI guarantees tags <= 32767).
GATHER_TAG = 32101


def init_ranks(mpi_comm) -> list[int]:
    """``[rank, intra_rank, intra_size, inter_rank, inter_size]`` of this process.

    The node layout comes from MPI itself (``Split_type(COMM_TYPE_SHARED)``: processes that
    can share memory are on one node), so it works with any MPI implementation.
    """
    rank = mpi_comm.Get_rank()
    intra = mpi_comm.Split_type(MPI.COMM_TYPE_SHARED, key=rank)
    try:
        intra_rank, intra_size = intra.Get_rank(), intra.Get_size()
        is_leader = 1 if intra_rank == 0 else 0
        inter_size = mpi_comm.allreduce(is_leader)
        # Node index = number of leaders with a smaller world rank, told by the leader.
        leaders_before = mpi_comm.exscan(is_leader) or 0
        inter_rank = intra.bcast(leaders_before if is_leader else None, root=0)
    finally:
        intra.Free()
    return [rank, intra_rank, intra_size, inter_rank, inter_size]


class _Pickler(pickle.Pickler):
    """Pickles ChainerX arrays of the native device (as ChainerX arrays again on arrival)."""

    def reducer_override(self, obj):
        chainerx = sys.modules.get("chainerx")
        if chainerx is None or not isinstance(obj, chainerx.ndarray):
            return NotImplemented
        if obj.device.backend.name != "native":
            raise ValueError(
                f"cannot send a ChainerX array on {obj.device.name} as a Python object; send "
                "arrays with send()/bcast() or move it to the CPU first"
            )
        return _native_chainerx_array, (backend.CpuDevice().send(obj),)


def _native_chainerx_array(array: numpy.ndarray):
    import chainerx

    return chainerx.array(array, device="native:0")


def dumps(obj) -> bytes:
    """``pickle.dumps`` that also takes ChainerX arrays of the native device."""
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return buffer.getvalue()


def _try_dumps(obj):
    """``(payload bytes as uint8 array, None)`` or ``(None, error message)``."""
    try:
        return numpy.frombuffer(dumps(obj), "u1"), None
    except Exception as error:  # any pickling failure is reported to the peers, then raised
        return None, f"{type(error).__name__}: {error}"


def check_max_buf_len(max_buf_len) -> int:
    """``max_buf_len`` as a chunk size in bytes, or ``INT_MAX`` for ``None``."""
    if max_buf_len is None:
        return INT_MAX
    if not isinstance(max_buf_len, (int, numpy.integer)) or not 0 < max_buf_len < INT_MAX:
        raise ValueError(
            f"max_buf_len must be an int in [1, {INT_MAX - 1}] (bytes per message), "
            f"got {max_buf_len!r}"
        )
    return int(max_buf_len)


def _chunks(total: int, chunk: int):
    for start in range(0, total, chunk):
        yield start, min(start + chunk, total)


def chunked_bcast_obj(obj, mpi_comm, max_buf_len=None, root: int = 0):
    """Broadcast a picklable object in messages of at most ``max_buf_len`` bytes.

    Objects over 2 GiB pickled work: the length travels first, then the bytes in chunks.
    """
    chunk = check_max_buf_len(max_buf_len)
    error = None
    if mpi_comm.Get_rank() == root:
        payload, error = _try_dumps(obj)
        length = numpy.array([-1 if payload is None else payload.size], numpy.int64)
    else:
        length = numpy.empty(1, numpy.int64)
    mpi_comm.Bcast(length, root=root)
    if length[0] < 0:
        raise ValueError(f"bcast_obj: rank {root} (root) could not pickle the object: {error}")
    if mpi_comm.Get_rank() != root:
        payload = numpy.empty(int(length[0]), "u1")
    for start, stop in _chunks(payload.size, chunk):
        mpi_comm.Bcast(payload[start:stop], root=root)
    if mpi_comm.Get_rank() == root:
        return obj
    return pickle.loads(payload)


def chunked_send_obj(obj, mpi_comm, dest: int, tag: int, chunk=None) -> None:
    """Send a picklable object of any size to ``dest`` (length, then chunks of ``chunk``)."""
    chunk = check_max_buf_len(chunk)
    payload, error = _try_dumps(obj)
    if payload is None:
        mpi_comm.send((-1, error), dest=dest, tag=tag)  # the receiver raises too
        raise ValueError(f"send_obj: could not pickle the object: {error}")
    payload = payload.tobytes()
    mpi_comm.send((len(payload), chunk), dest=dest, tag=tag)
    view = memoryview(payload)
    for start, stop in _chunks(len(payload), chunk):
        mpi_comm.Send([view[start:stop], MPI.BYTE], dest=dest, tag=tag)


def chunked_recv_obj(mpi_comm, source: int, tag: int, status=None):
    """Receive what :func:`chunked_send_obj` sent."""
    probe = MPI.Status()
    length, chunk = mpi_comm.recv(source=source, tag=tag, status=probe)
    # The chunks follow from the very sender and tag that the length came with.
    source, tag = probe.Get_source(), probe.Get_tag()
    if length < 0:
        raise ValueError(f"recv_obj: rank {source} could not pickle its object: {chunk}")
    payload = bytearray(length)
    view = memoryview(payload)
    for start, stop in _chunks(length, chunk):
        mpi_comm.Recv([view[start:stop], MPI.BYTE], source=source, tag=tag)
    if status is not None:
        status.Set_source(source)
        status.Set_tag(tag)
    return pickle.loads(payload)


def chunked_gather_obj(obj, mpi_comm, root: int = 0):
    """Gather one picklable object of any size per rank at ``root`` (a list there)."""
    payload, error = _try_dumps(obj)
    lengths = mpi_comm.gather(error if payload is None else payload.size, root=root)
    if mpi_comm.Get_rank() != root:
        if payload is None:
            raise ValueError(f"gather_obj: could not pickle the object: {error}")
        for start, stop in _chunks(payload.size, INT_MAX):
            mpi_comm.Send([payload[start:stop], MPI.BYTE], dest=root, tag=GATHER_TAG)
        return None
    result, errors = [], []
    for source, length in enumerate(lengths):
        if isinstance(length, str):
            errors.append(f"rank {source}: {length}")
            continue
        if source == root:
            result.append(obj)
            continue
        buf = numpy.empty(length, "u1")
        for start, stop in _chunks(length, INT_MAX):
            mpi_comm.Recv([buf[start:stop], MPI.BYTE], source=source, tag=GATHER_TAG)
        result.append(pickle.loads(buf))
    if errors:
        raise ValueError(f"gather_obj: could not pickle the objects of {'; '.join(errors)}")
    return result
