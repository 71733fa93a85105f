"""Multi-node evaluators equal the single-process evaluator on the whole set (mpi)."""

import numpy
import pytest
from _helpers import MLP, rank_data

import chainer
import chainer.links as L
import chainermn
from chainer.training import extensions

pytestmark = pytest.mark.mpi


def _whole_set(n=24):
    x, t = rank_data(99, n=n)
    return chainer.datasets.TupleDataset(x, t)


def test_multi_node_evaluator_equals_the_single_process_one():
    comm = chainermn.create_communicator("flat")
    numpy.random.seed(0)
    model = L.Classifier(MLP())  # the same parameters on every rank
    whole = _whole_set()
    single = extensions.Evaluator(
        chainer.iterators.SerialIterator(whole, 4, repeat=False, shuffle=False), model
    )()
    part = chainermn.scatter_dataset(whole if comm.rank == 0 else None, comm)
    evaluator = chainermn.create_multi_node_evaluator(
        extensions.Evaluator(
            chainer.iterators.SerialIterator(part, 4, repeat=False, shuffle=False), model
        ),
        comm,
    )
    multi = evaluator()
    assert sorted(multi) == sorted(single) == ["main/accuracy", "main/loss"]
    for key in single:
        numpy.testing.assert_allclose(float(multi[key]), float(single[key]), rtol=1e-6)


def test_multi_node_evaluator_with_different_keys_raises_everywhere():
    comm = chainermn.create_communicator("naive")
    if comm.size == 1:
        pytest.skip("needs two ranks")

    class Reporting(chainer.Chain):
        def forward(self, x):
            chainer.report({f"key{comm.rank}": float(x.sum())}, self)
            return x.sum()

    data = numpy.ones((4, 2), numpy.float32)
    evaluator = chainermn.create_multi_node_evaluator(
        extensions.Evaluator(chainer.iterators.SerialIterator(data, 2, False), Reporting()), comm
    )
    with pytest.raises(ValueError, match="same keys and shapes; rank 0 has .* but rank 1 has"):
        evaluator()


def test_generic_evaluator_gathers_batch_results_interleaved_at_root():
    comm = chainermn.create_communicator("naive")
    a = list(range(comm.rank, 23, comm.size))
    data = chainer.datasets.TupleDataset(a, a)
    iterator = chainer.iterators.SerialIterator(data, 3, repeat=False, shuffle=False)

    class Evaluator(chainermn.extensions.GenericMultiNodeEvaluator):
        def calc_local(self, x, y):
            return (comm.rank, (x + y).tolist())

    results = Evaluator(comm, iterator, target=None)()
    if comm.rank != 0:
        assert results is None
        return
    per_rank = [list(range(r, 23, comm.size)) for r in range(comm.size)]
    batches = [[p[i : i + 3] for i in range(0, len(p), 3)] for p in per_rank]
    expected = []
    for index in range(max(len(b) for b in batches)):
        for r, b in enumerate(batches):
            if index < len(b):
                expected.append((r, [2 * v for v in b[index]]))
    assert results == expected


def test_allreduce_persistent_averages_float_persistents_only():
    comm = chainermn.create_communicator("naive")
    bn = L.BatchNormalization(3)
    bn.avg_mean[...] = comm.rank
    bn.avg_var[...] = 2.0 * comm.rank
    bn.N = comm.rank
    gamma = bn.gamma.array.copy()
    chainermn.extensions.AllreducePersistent(bn, comm)()
    numpy.testing.assert_allclose(bn.avg_mean, (comm.size - 1) / 2)
    numpy.testing.assert_allclose(bn.avg_var, comm.size - 1.0)
    assert bn.N == comm.rank
    numpy.testing.assert_array_equal(bn.gamma.array, gamma)


class _Trainer:
    """Just what triggers and aggregators read from a trainer."""

    def __init__(self, iter_per_epoch=2):
        self.observation = {}
        self.updater = type("U", (), {})()
        self.updater.iteration, self.updater.epoch = 0, 0
        self.updater.epoch_detail, self.updater.previous_epoch_detail = 0.0, None
        self.updater.is_new_epoch = False
        self.iter_per_epoch = iter_per_epoch

    def step(self):
        u = self.updater
        u.previous_epoch_detail = u.epoch_detail
        u.iteration += 1
        u.epoch_detail = u.iteration / self.iter_per_epoch
        u.epoch = int(u.epoch_detail)
        u.is_new_epoch = u.iteration % self.iter_per_epoch == 0


@pytest.mark.parametrize("as_variable", [False, True])
def test_observation_aggregator_publishes_the_mean_over_ranks(as_variable):
    comm = chainermn.create_communicator("naive")
    aggregator = chainermn.extensions.ObservationAggregator(
        comm, "rank", "rank/mean", comm_trigger=(2, "iteration")
    )
    trainer = _Trainer()
    for iteration in range(1, 5):
        trainer.step()
        value = numpy.asarray(comm.rank + iteration, numpy.float32)
        trainer.observation = {"rank": chainer.Variable(value) if as_variable else value}
        aggregator(trainer)
        if iteration % 2:
            assert "rank/mean" not in trainer.observation
            continue
        result = trainer.observation["rank/mean"]
        assert isinstance(result, chainer.Variable) == as_variable
        # mean over ranks of (rank + iteration - 0.5): the local mean of two iterations
        expected = (comm.size - 1) / 2 + iteration - 0.5
        numpy.testing.assert_allclose(chainer.as_array(result), expected)


def test_multi_node_early_stopping_stops_every_rank_together():
    comm = chainermn.create_communicator("naive")
    trigger = chainermn.extensions.MultiNodeEarlyStoppingTrigger(
        comm, monitor="main/accuracy", patience=2, check_trigger=(1, "epoch")
    )
    # The mean over ranks rises for 2 epochs, then falls; rank-dependent noise averages out.
    per_epoch = [0.5, 0.6, 0.7, 0.65, 0.6, 0.55]
    noise = 0.01 * (comm.rank - (comm.size - 1) / 2)
    trainer = _Trainer()
    fired = []
    for epoch_value in per_epoch:
        for _ in range(2):
            trainer.step()
            trainer.observation = {"main/accuracy": numpy.float32(epoch_value + noise)}
            fired.append(trigger(trainer))
    assert fired == [False] * 9 + [True, False, True]
    assert comm.mpi_comm.allgather(fired) == [fired] * comm.size
    assert trigger.get_training_length() == (100, "epoch")
