"""Checkpointer and multi_node_snapshot: every process resumes from the same complete set."""

from __future__ import annotations

import os

import numpy
import pytest

import chainer
import chainer.links as L
import chainermn
from chainer import training
from chainer.training import extensions
from chainermn.extensions import _multi_node_snapshot

pytestmark = pytest.mark.mpi


class Holder(chainer.Chain):
    """A link with one parameter, to checkpoint."""

    def __init__(self) -> None:
        super().__init__()
        with self.init_scope():
            self.w = chainer.Parameter(numpy.zeros(3, numpy.float32))


@pytest.fixture
def comm():
    return chainermn.create_communicator("naive")


@pytest.fixture
def shared_dir(comm, tmp_path):
    """One directory for every process (rank 0's temporary directory)."""
    return comm.bcast_obj(str(tmp_path), root=0)


def _save_sets(checkpointer, comm, iterations):
    holder = Holder()
    for iteration in iterations:
        holder.w.array[...] = 100 * comm.rank + iteration
        checkpointer.save(holder, iteration)


def _loaded(checkpointer) -> numpy.ndarray:
    holder = Holder()
    checkpointer.maybe_load(holder)
    return holder.w.array


def test_resumes_from_the_newest_set_and_keeps_cp_interval_sets(comm, shared_dir):
    checkpointer = chainermn.create_multi_node_checkpointer(
        "run", comm, cp_interval=2, gc_interval=2, path=shared_dir
    )
    _save_sets(checkpointer, comm, [1, 2, 3, 4])
    comm.mpi_comm.Barrier()
    mine = sorted(n for n in os.listdir(shared_dir) if n.startswith(f"run.{comm.rank}."))
    assert mine == [f"run.{comm.rank}.3", f"run.{comm.rank}.4"]
    fresh = chainermn.create_multi_node_checkpointer("run", comm, path=shared_dir)
    numpy.testing.assert_array_equal(_loaded(fresh), numpy.full(3, 100 * comm.rank + 4))
    assert checkpointer.get_stats().startswith("4 checkpoints, ")
    checkpointer.finalize()
    comm.mpi_comm.Barrier()
    assert not [n for n in os.listdir(shared_dir) if n.startswith(f"run.{comm.rank}.")]


@pytest.mark.parametrize("damage", ["missing", "truncated"])
def test_one_damaged_file_makes_every_process_fall_back(comm, shared_dir, damage):
    checkpointer = chainermn.create_multi_node_checkpointer(
        "run", comm, cp_interval=5, gc_interval=5, path=shared_dir
    )
    _save_sets(checkpointer, comm, [10, 20])
    comm.mpi_comm.Barrier()
    victim = comm.size - 1
    if comm.rank == victim:
        path = os.path.join(shared_dir, f"run.{victim}.20")
        if damage == "missing":
            os.remove(path)
        else:
            with open(path, "r+b") as f:
                f.truncate(os.path.getsize(path) // 2)
    comm.mpi_comm.Barrier()
    fresh = chainermn.create_multi_node_checkpointer("run", comm, path=shared_dir)
    if damage == "missing":
        message = rf"20 is missing on rank\(s\) \[{victim}\]"
    else:
        message = f"20 is unusable: rank {victim}: truncated or corrupt"
    # With one process a removed file leaves nothing to pass over.
    if comm.rank == 0 and (comm.size > 1 or damage == "truncated"):
        with pytest.warns(UserWarning, match=message + ".*resuming from 10"):
            loaded = _loaded(fresh)
    else:
        loaded = _loaded(fresh)
    # Never a mixed set: every process is back at iteration 10.
    numpy.testing.assert_array_equal(loaded, numpy.full(3, 100 * comm.rank + 10))


def test_no_checkpoint_leaves_the_target_alone(comm, shared_dir):
    fresh = chainermn.create_multi_node_checkpointer("none", comm, path=shared_dir)
    numpy.testing.assert_array_equal(_loaded(fresh), numpy.zeros(3))


def _trainer(comm, out):
    model = L.Classifier(L.Linear(2, 2))
    optimizer = chainermn.create_multi_node_optimizer(chainer.optimizers.SGD(), comm)
    optimizer.setup(model)
    x = numpy.ones((4, 2), numpy.float32)
    data = chainer.datasets.TupleDataset(x, numpy.zeros(4, numpy.int32))
    updater = training.StandardUpdater(chainer.iterators.SerialIterator(data, 2), optimizer)
    return training.Trainer(updater, out=out), updater


def test_multi_node_snapshot_saves_on_masters_and_loads_everywhere(comm, shared_dir):
    trainer, updater = _trainer(comm, shared_dir)
    snapshot = extensions.snapshot(target=updater, autoload=True)
    mn_snapshot = chainermn.extensions.multi_node_snapshot(comm, snapshot, [0])
    assert mn_snapshot.is_master == (comm.rank in (0, 1))
    mn_snapshot.initialize(trainer)
    for _ in range(3):
        updater.update()
    mn_snapshot(trainer)
    mn_snapshot.finalize()
    comm.mpi_comm.Barrier()
    masters = [0] if comm.size == 1 else [0, 1]
    assert sorted(n for n in os.listdir(shared_dir) if n.startswith("snapshot")) == [
        f"snapshot_iter_3.{rank}" for rank in masters
    ]

    trainer2, updater2 = _trainer(comm, shared_dir)
    snapshot2 = extensions.snapshot(target=updater2, autoload=True)
    chainermn.extensions.multi_node_snapshot(comm, snapshot2, [0]).initialize(trainer2)
    assert updater2.iteration == 3


def test_parse_replica_sets():
    parse = _multi_node_snapshot._parse_replica_sets
    assert parse([0], 4) == [{0}, {1, 2, 3}]
    assert parse([[0, 1], [2, 3]], 4) == [{0, 1}, {2, 3}]
    assert parse([], 3) == [{0, 1, 2}]
    with pytest.raises(ValueError, match="4 is not a rank"):
        parse([4], 4)
    with pytest.raises(ValueError, match=r"ranks \[1\] are in two sets"):
        parse([[0, 1], [1, 2]], 4)
