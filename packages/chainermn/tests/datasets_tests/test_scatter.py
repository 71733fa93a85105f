"""scatter_dataset / scatter_index: parts are equal or disjoint, and always cover the data."""

import numpy
import pytest
from mpi4py import MPI

import chainer
import chainermn
from chainermn.datasets.scatter import _scatter_index


@pytest.mark.parametrize("size", [1, 2, 3, 4, 7])
@pytest.mark.parametrize("n", [0, 1, 2, 5, 10, 23, 100])
@pytest.mark.parametrize("force_equal_length", [True, False])
def test_index_ranges_cover_everything(n, size, force_equal_length):
    ranges = [(b, e) for _, b, e in _scatter_index(n, size, force_equal_length)]
    covered = sorted(i for b, e in ranges for i in range(b, e))
    assert set(covered) == set(range(n))
    assert all(0 <= b <= e <= n for b, e in ranges)
    lengths = [e - b for b, e in ranges]
    if force_equal_length:
        assert set(lengths) == {-(-n // size)}
    else:
        assert covered == list(range(n))  # disjoint
        assert max(lengths) - min(lengths) <= 1


def test_example_split_of_ten_over_three():
    assert list(_scatter_index(10, 3, False)) == [(0, 0, 4), (1, 4, 7), (2, 7, 10)]


@pytest.mark.mpi
@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("force_equal_length", [True, False])
@pytest.mark.parametrize("n", [0, 1, 7, 30])
def test_scatter_dataset_parts_cover_the_dataset(n, shuffle, force_equal_length):
    comm = chainermn.create_communicator("naive")
    root = comm.size - 1
    data = chainer.datasets.TupleDataset(numpy.arange(n), numpy.arange(n) * 10)
    part = chainermn.scatter_dataset(
        data if comm.rank == root else None,
        comm,
        root=root,
        shuffle=shuffle,
        seed=3,
        max_buf_len=64,  # many chunks
        force_equal_length=force_equal_length,
    )
    assert isinstance(part, chainer.datasets.SubDataset)
    mine = [int(x) for x, y in part]
    assert all(y == 10 * x for x, y in part)
    parts = comm.mpi_comm.allgather(mine)
    everything = [i for p in parts for i in p]
    assert set(everything) == set(range(n))
    if force_equal_length:
        assert len({len(p) for p in parts}) == 1
    else:
        assert sorted(everything) == list(range(n))


@pytest.mark.mpi
def test_scatter_dataset_same_seed_same_split_and_mpi4py_comm():
    parts = [
        list(chainermn.scatter_dataset(list(range(20)), MPI.COMM_WORLD, shuffle=True, seed=9))
        for _ in range(2)
    ]
    assert parts[0] == parts[1]


@pytest.mark.mpi
def test_scatter_index_follows_root_count():
    comm = chainermn.create_communicator("naive")
    begin, end = chainermn.scatter_index(10 if comm.rank == 0 else -1, comm)
    expected = [(b, e) for _, b, e in _scatter_index(10, comm.size, True)][comm.rank]
    assert (begin, end) == expected


@pytest.mark.mpi
def test_a_dataset_without_length_is_a_data_size_error_on_every_rank():
    comm = chainermn.create_communicator("naive")
    with pytest.raises(chainermn.DataSizeError, match="rank 0 \\(root\\): .*must have a length"):
        chainermn.scatter_dataset(iter(range(3)), comm)


def test_create_empty_dataset():
    empty = chainermn.datasets.create_empty_dataset(numpy.arange(4))
    assert empty == [(), (), (), ()]
    assert chainermn.datasets.create_empty_dataset([]) == []
