"""create_multi_node_optimizer: data-parallel steps equal single-process steps."""

import numpy
import pytest
from _helpers import MLP, rank_data, update_raises_on_every_rank

import chainer
import chainermn


def _train_single_process(size: int, steps: int, seed_model: MLP) -> MLP:
    """Plain Chainer on the concatenation of every rank's batch."""
    model = seed_model.copy(mode="copy")
    optimizer = chainer.optimizers.MomentumSGD(lr=0.1)
    optimizer.setup(model)
    for step in range(steps):
        batches = [rank_data(r, step=step) for r in range(size)]
        x = numpy.concatenate([b[0] for b in batches])
        t = numpy.concatenate([b[1] for b in batches])
        optimizer.update(model, x, t)
    return model


@pytest.mark.mpi
@pytest.mark.parametrize("bucketed", [False, True])
@pytest.mark.parametrize("name", ["naive", "flat", "hierarchical"])
def test_k_steps_equal_single_process_on_concatenated_batch(name, bucketed):
    comm = chainermn.create_communicator(name)
    numpy.random.seed(0)  # the same initial model on every rank...
    reference = MLP()
    model = reference.copy(mode="copy")
    if comm.rank != 0:  # ...but the other ranks start elsewhere: setup must broadcast rank 0's
        for param in model.params():
            param.array[...] = comm.rank + 7
    optimizer = chainermn.create_multi_node_optimizer(
        chainer.optimizers.MomentumSGD(lr=0.1), comm, bucketed=bucketed, bucket_bytes=64
    )
    optimizer.setup(model)
    x, t = rank_data(comm.rank, step=0)
    optimizer.update(model, x, t)  # the first update broadcasts (v7), it does not step
    assert optimizer.t == 0
    steps = 3
    for step in range(steps):
        x, t = rank_data(comm.rank, step=step)
        optimizer.update(model, x, t)
    assert optimizer.t == steps
    expected = _train_single_process(comm.size, steps, reference)
    for (name_, p), (_, q) in zip(sorted(model.namedparams()), sorted(expected.namedparams())):
        numpy.testing.assert_allclose(p.array, q.array, rtol=1e-5, atol=1e-6, err_msg=name_)
    comm.finalize()


def _plain_and_bucketed(comm, optimizer_class, bucket_bytes: int):
    """Two copies of one MLP with multi-node optimizers, plain and bucketed, set up and
    through their first (broadcasting) update."""
    models = [MLP(), None]
    models[1] = models[0].copy(mode="copy")
    optimizers = []
    for model, bucketed in zip(models, (False, True)):
        opt = chainermn.create_multi_node_optimizer(
            optimizer_class(lr=0.5), comm, bucketed=bucketed, bucket_bytes=bucket_bytes
        )
        opt.setup(model)
        opt.update()  # broadcast
        optimizers.append(opt)
    return models, optimizers


@pytest.mark.mpi
def test_bucketed_gradients_equal_plain_gradients_with_a_second_backward():
    comm = chainermn.create_communicator("flat")
    numpy.random.seed(1)
    models, optimizers = _plain_and_bucketed(comm, chainer.optimizers.SGD, 32)
    x, t = rank_data(comm.rank)
    for model, opt in zip(models, optimizers):
        model.cleargrads()
        model(x, t).backward()
        model(x[::-1].copy(), t[::-1].copy()).backward()  # gradient accumulation: stale path
        opt.update()
    for (_, p), (_, q) in zip(sorted(models[0].namedparams()), sorted(models[1].namedparams())):
        numpy.testing.assert_allclose(p.array, q.array, rtol=1e-6)
    comm.finalize()


@pytest.mark.mpi
@pytest.mark.parametrize("bucket_bytes", [32, 10**6])
def test_bucketed_and_plain_steps_agree_bitwise_on_two_ranks(bucket_bytes):
    """With two ranks every sum has two addends, so any order gives the same bits: the
    bucketed path (divided while unpacking) must give exactly the plain path's parameters."""
    comm = chainermn.create_communicator("flat")
    numpy.random.seed(2)
    models, optimizers = _plain_and_bucketed(comm, chainer.optimizers.MomentumSGD, bucket_bytes)
    for step in range(3):
        for model, opt in zip(models, optimizers):
            opt.update(model, *rank_data(comm.rank, step=step))
    for (n, p), (_, q) in zip(sorted(models[0].namedparams()), sorted(models[1].namedparams())):
        if comm.size <= 2:
            numpy.testing.assert_array_equal(p.array, q.array, err_msg=n)
        else:
            numpy.testing.assert_allclose(p.array, q.array, rtol=1e-6, atol=1e-7, err_msg=n)
    comm.finalize()


@pytest.mark.mpi
@pytest.mark.parametrize("double_buffering", [False, True])
def test_models_that_differ_between_ranks_raise_on_every_rank(double_buffering):
    comm = chainermn.create_communicator("flat")
    model = MLP(n_hidden=5 + comm.rank)  # a different shape on each rank
    optimizer = chainermn.create_multi_node_optimizer(
        chainer.optimizers.SGD(), comm, double_buffering
    )
    optimizer.setup(model)
    update_raises_on_every_rank(comm, optimizer, "rank 1")
    comm.finalize()


def test_bad_bucket_size_is_refused():
    comm = chainermn.create_communicator("naive")
    with pytest.raises(ValueError, match="bucket_bytes"):
        chainermn.create_multi_node_optimizer(
            chainer.optimizers.SGD(), comm, bucketed=True, bucket_bytes=0
        )


def test_wrapper_delegates_attributes_to_the_actual_optimizer():
    comm = chainermn.create_communicator("naive")
    actual = chainer.optimizers.SGD(lr=0.25)
    optimizer = chainermn.create_multi_node_optimizer(actual, comm)
    assert optimizer.lr == 0.25
    optimizer.lr = 0.5
    assert actual.lr == 0.5


@pytest.mark.mpi
def test_bucketed_allreduce_starts_during_backward():
    comm = chainermn.create_communicator("flat")
    numpy.random.seed(2)
    model = MLP()
    optimizer = chainermn.create_multi_node_optimizer(
        chainer.optimizers.SGD(), comm, bucketed=True, bucket_bytes=40
    )
    optimizer.setup(model)
    optimizer.update()  # broadcast and plan
    reducer = optimizer._bucketed
    # Backward order l2/b (12 B), l2/W (60 B) | l1/b (20 B), l1/W (80 B): two 40-byte buckets.
    assert [len(b.params) for b in reducer.buckets] == [2, 2]
    x, t = rank_data(comm.rank)
    model.cleargrads()
    model(x, t).backward()
    assert reducer.next_to_start == len(reducer.buckets)  # every bucket already in flight
    optimizer.update()
    assert optimizer.t == 1
    comm.finalize()
