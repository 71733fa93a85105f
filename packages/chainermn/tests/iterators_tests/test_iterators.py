"""Multi-node and synchronized iterators give every rank the same batches (mpi)."""

import numpy
import pytest

import chainer
import chainermn

pytestmark = pytest.mark.mpi


def _all_equal(comm, value):
    gathered = comm.mpi_comm.allgather(value)
    return all(g == gathered[0] for g in gathered)


@pytest.mark.parametrize("rank_master", [0, -1])
def test_multi_node_iterator_broadcasts_the_master_batches(rank_master):
    comm = chainermn.create_communicator("naive")
    master = rank_master % comm.size
    # Each rank has a different dataset; only the master's is used.
    data = [("s", i + 100 * comm.rank) for i in range(10)]
    iterator = chainermn.iterators.create_multi_node_iterator(
        chainer.iterators.SerialIterator(data, 3, repeat=False, shuffle=True), comm, master
    )
    batches = list(iterator)
    assert _all_equal(comm, batches)
    assert sorted(i for b in batches for _, i in b) == [i + 100 * master for i in range(10)]
    assert iterator.epoch == 1 and iterator.is_new_epoch
    iterator.reset()
    assert iterator.epoch == 0
    assert len(list(iterator)) == 4


def test_synchronized_iterator_shuffles_identically():
    comm = chainermn.create_communicator("naive")
    numpy.random.seed(comm.rank)  # different global states on each rank
    iterator = chainermn.iterators.create_synchronized_iterator(
        chainer.iterators.SerialIterator(numpy.arange(12), 5, shuffle=True), comm
    )
    batches = [[int(x) for x in iterator.next()] for _ in range(6)]
    assert _all_equal(comm, batches)
    assert sorted(sum(batches, [])[:12]) == list(range(12))  # first epoch: a permutation
