"""Every array and object collective against NumPy, on any number of ranks (mpi)."""

import numpy
import pytest
from _helpers import CPU_COMMUNICATORS
from mpi4py import MPI

import chainermn

pytestmark = pytest.mark.mpi
DTYPES = [numpy.float16, numpy.float32, numpy.float64, numpy.int32, numpy.int64]


def _value(rank, shape, dtype):
    """Rank-dependent data every rank can recompute for any other rank."""
    return (numpy.arange(int(numpy.prod(shape))).reshape(shape) % 7 + rank * 3).astype(dtype)


@pytest.fixture(params=CPU_COMMUNICATORS)
def comm(request):
    communicator = chainermn.create_communicator(request.param)
    yield communicator
    communicator.finalize()


@pytest.mark.parametrize("dtype", DTYPES)
def test_allreduce_is_the_sum(comm, dtype):
    x = _value(comm.rank, (3, 4), dtype)
    expected = sum(_value(r, (3, 4), dtype).astype(numpy.float64) for r in range(comm.size))
    y = comm.allreduce(x)
    assert y.dtype == dtype and y.shape == (3, 4)
    numpy.testing.assert_array_equal(y, expected.astype(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_bcast_gather_scatter_allgather(comm, dtype):
    root = comm.size - 1
    x = _value(comm.rank, (2, 3), dtype)
    numpy.testing.assert_array_equal(
        comm.bcast(x if comm.rank == root else None, root=root), _value(root, (2, 3), dtype)
    )
    gathered = comm.gather(_value(comm.rank, (comm.rank + 1,), dtype), root=root)
    if comm.rank == root:
        assert len(gathered) == comm.size
        for r, g in enumerate(gathered):
            numpy.testing.assert_array_equal(g, _value(r, (r + 1,), dtype))
    else:
        assert gathered is None
    xs = [_value(r, (r + 2, 2), dtype) for r in range(comm.size)] if comm.rank == root else None
    numpy.testing.assert_array_equal(
        comm.scatter(xs, root=root), _value(comm.rank, (comm.rank + 2, 2), dtype)
    )
    ys = comm.allgather(x)
    for r, y in enumerate(ys):
        numpy.testing.assert_array_equal(y, _value(r, (2, 3), dtype))


def test_alltoall_sends_piece_i_to_rank_i(comm):
    xs = [_value(10 * comm.rank + dest, (dest + 1, 2), numpy.float32) for dest in range(comm.size)]
    ys = comm.alltoall(xs)
    assert len(ys) == comm.size
    for source, y in enumerate(ys):
        numpy.testing.assert_array_equal(
            y, _value(10 * source + comm.rank, (comm.rank + 1, 2), numpy.float32)
        )


def test_send_recv_arrays_and_tuples_in_a_ring(comm):
    if comm.size < 2:
        pytest.skip("needs two ranks")
    nxt, prev = (comm.rank + 1) % comm.size, (comm.rank - 1) % comm.size
    noncontiguous = _value(comm.rank, (4, 6), numpy.float64)[:, ::2]
    if comm.rank % 2 == 0:
        comm.send(noncontiguous, dest=nxt, tag=5)
        comm.send((noncontiguous, numpy.int64(comm.rank)), dest=nxt, tag=6)
        single, pair = comm.recv(prev, 5), comm.recv(prev, 6)
    else:
        single, pair = comm.recv(prev, 5), comm.recv(prev, 6)
        comm.send(noncontiguous, dest=nxt, tag=5)
        comm.send((noncontiguous, numpy.int64(comm.rank)), dest=nxt, tag=6)
    expected = _value(prev, (4, 6), numpy.float64)[:, ::2]
    numpy.testing.assert_array_equal(single, expected)
    assert isinstance(pair, tuple)
    numpy.testing.assert_array_equal(pair[0], expected)
    assert pair[1] == prev


def test_object_collectives(comm):
    obj = {"rank": comm.rank, "payload": list(range(comm.rank + 1))}
    assert comm.bcast_obj(obj if comm.rank == 0 else None) == {"rank": 0, "payload": [0]}
    gathered = comm.gather_obj(obj)
    if comm.rank == 0:
        assert [g["rank"] for g in gathered] == list(range(comm.size))
    assert comm.allreduce_obj(comm.rank + 1) == comm.size * (comm.size + 1) // 2
    assert comm.allreduce_obj([comm.rank]) == list(range(comm.size))


def test_bcast_obj_in_small_chunks(comm):
    payload = numpy.arange(10000) if comm.rank == 0 else None
    numpy.testing.assert_array_equal(comm.bcast_obj(payload, max_buf_len=999), numpy.arange(10000))


def test_send_recv_obj_with_status(comm):
    if comm.size < 2:
        pytest.skip("needs two ranks")
    if comm.rank == 0:
        comm.send_obj(("hello", 1), dest=1, tag=7)
    elif comm.rank == 1:
        status = MPI.Status()
        assert comm.recv_obj(0, status=status) == ("hello", 1)
        assert (status.Get_source(), status.Get_tag()) == (0, 7)


# --- bad input: every rank raises, nobody hangs -----------------------------------------------
def test_allreduce_with_different_shapes_raises_on_every_rank_naming_the_rank(comm):
    x = numpy.zeros(3 + comm.rank, numpy.float32)
    if comm.size == 1:
        comm.allreduce(x)
        return
    with pytest.raises(ValueError, match=r"allreduce: .*rank 0 has shape \(3,\).*rank 1 has"):
        comm.allreduce(x)


def test_allgather_with_different_dtypes_raises_on_every_rank(comm):
    x = numpy.zeros(3, numpy.float32 if comm.rank == 0 else numpy.float64)
    if comm.size == 1:
        return
    with pytest.raises(ValueError, match="rank 0 has float32, rank 1 has float64"):
        comm.allgather(x)


def test_a_wrong_buffer_on_one_rank_raises_on_every_rank(comm):
    x = numpy.array([object()]) if comm.rank == comm.size - 1 else numpy.zeros(1)
    with pytest.raises(ValueError, match=f"rank {comm.size - 1}: .*dtype object"):
        comm.allreduce(x)
    bad = "not an array" if comm.rank == 0 else numpy.zeros(1)
    with pytest.raises(ValueError, match="rank 0: alltoall xs.*must be a NumPy.*got builtins.str"):
        comm.alltoall([bad] * comm.size)


def test_scatter_with_a_wrong_count_raises_on_every_rank(comm):
    xs = [numpy.zeros(2)] * (comm.size + 1) if comm.rank == 0 else None
    with pytest.raises(
        ValueError, match=f"rank 0 \\(root\\): xs must be .* of {comm.size} arrays"
    ):
        comm.scatter(xs)


def test_send_of_a_bad_buffer_fails_on_both_sides(comm):
    if comm.size < 2:
        pytest.skip("needs two ranks")
    if comm.rank == 0:
        with pytest.raises(TypeError, match="rank 0: send data\\[0\\] has dtype object"):
            comm.send(numpy.array([None]), dest=1, tag=1)
    elif comm.rank == 1:
        with pytest.raises(ValueError, match="recv from rank 0: the sender failed"):
            comm.recv(0, 1)


def test_native_chainerx_arrays_travel_as_objects(comm):
    chainerx = pytest.importorskip("chainerx")
    received = comm.bcast_obj(chainerx.array([1.0, 2.0 + comm.rank]) if comm.rank == 0 else None)
    assert isinstance(received, chainerx.ndarray)
    numpy.testing.assert_array_equal(chainerx.to_numpy(received), [1.0, 2.0])


def test_an_unpicklable_object_at_the_root_raises_on_every_rank(comm):
    obj = (lambda: 0) if comm.rank == 0 else None
    with pytest.raises(ValueError, match="bcast_obj: rank 0 \\(root\\) could not pickle"):
        comm.bcast_obj(obj)
    if comm.rank == 0:
        with pytest.raises(ValueError, match="could not pickle the objects of rank 0"):
            comm.gather_obj(lambda: 0)
    else:
        assert comm.gather_obj(comm.rank) is None
