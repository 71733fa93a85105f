"""Multi-node and synchronized iterators give every rank the same batches (mpi)."""

import numpy
import pytest

import chainer
import chainermn
from chainer.serializers import DictionarySerializer, NpzDeserializer

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


def _numbers(batch):
    return [int(x) for x in batch]


@pytest.mark.parametrize(
    "iterator_class", [chainer.iterators.SerialIterator, chainer.iterators.MultiprocessIterator]
)
def test_multi_node_iterator_snapshot_holds_the_master_state_on_every_rank(iterator_class):
    comm = chainermn.create_communicator("naive")
    numpy.random.seed(comm.rank)  # each rank would shuffle differently on its own
    actual = iterator_class(numpy.arange(6), 2)
    iterator = chainermn.iterators.create_multi_node_iterator(actual, comm)
    seen = _numbers(iterator.next()) + _numbers(iterator.next())
    saved = DictionarySerializer()
    iterator.serialize(saved)
    actual.finalize()
    assert saved.target["epoch"] == 0 and saved.target["current_position"] == 4
    assert _all_equal(comm, {k: numpy.asarray(v).tolist() for k, v in saved.target.items()})
    # Every rank's snapshot resumes the master's epoch, also in a plain iterator.
    plain = chainer.iterators.SerialIterator(numpy.arange(6), 2)
    plain.serialize(NpzDeserializer(saved.target))
    assert plain.epoch_detail == pytest.approx(4 / 6) and not plain.is_new_epoch
    last = _numbers(plain.next())
    assert plain.is_new_epoch
    assert sorted(seen + last) == list(range(6))


def test_multi_node_iterator_loads_the_master_snapshot_only():
    comm = chainermn.create_communicator("naive")
    source = chainermn.iterators.create_multi_node_iterator(
        chainer.iterators.SerialIterator(numpy.arange(10), 3, shuffle=False), comm
    )
    source.next()
    saved = DictionarySerializer()
    source.serialize(saved)
    expected = [_numbers(source.next()) for _ in range(3)]
    # The other ranks pass a deserializer with nothing in it: they never read it.
    target = saved.target if comm.rank == 0 else {}
    resumed = chainermn.iterators.create_multi_node_iterator(
        chainer.iterators.SerialIterator(numpy.arange(10), 3, shuffle=False), comm
    )
    resumed.serialize(NpzDeserializer(target))
    assert resumed.epoch_detail == pytest.approx(0.3)
    assert [_numbers(resumed.next()) for _ in range(3)] == expected


def test_synchronized_iterator_resumes_from_a_snapshot():
    comm = chainermn.create_communicator("naive")
    numpy.random.seed(comm.rank)
    iterator = chainermn.iterators.create_synchronized_iterator(
        chainer.iterators.SerialIterator(numpy.arange(6), 2), comm
    )
    seen = _numbers(iterator.next()) + _numbers(iterator.next())
    saved = DictionarySerializer()
    iterator.serialize(saved)
    plain = chainer.iterators.SerialIterator(numpy.arange(6), 2)
    plain.serialize(NpzDeserializer(saved.target))
    last = _numbers(plain.next())
    assert plain.is_new_epoch and sorted(seen + last) == list(range(6))
    assert _all_equal(comm, seen + last)
