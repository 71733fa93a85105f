"""double_buffering=True: each update applies the gradients averaged at the previous one
while its own are averaged in the background (v7's step sequence), on every MPI communicator."""

import numpy
import pytest
from _helpers import CPU_COMMUNICATORS, MLP, rank_data, update_raises_on_every_rank

import chainer
import chainer.links as L
import chainermn
from chainer import serializers


def _stale_reference(size: int, steps: int, seed_model: MLP) -> MLP:
    """One process replaying the job: update ``s`` applies the mean over the ranks of the
    gradients of update ``s - 1`` (the first update broadcasts, the second only averages)."""
    model = seed_model.copy(mode="copy")
    optimizer = chainer.optimizers.MomentumSGD(lr=0.1).setup(model)
    params = sorted(model.namedparams())
    previous = None
    for step in range(1, steps):
        grads = []
        for rank in range(size):
            model.cleargrads()
            model(*rank_data(rank, step=step)).backward()
            grads.append([p.grad.copy() for _, p in params])
        # Summed in rank order, then times 1/size rounded to float32, as the communicator does.
        mean = [sum(g[i] for g in grads[1:]) + grads[0][i] for i in range(len(params))]
        mean = [m * numpy.float32(1.0 / size) for m in mean]
        if previous is not None:
            for (_, param), grad in zip(params, previous):
                param.grad = grad
            optimizer.update()
        previous = mean
    return model


def _double_buffered(comm, model, **kwargs):
    optimizer = chainermn.create_multi_node_optimizer(
        chainer.optimizers.MomentumSGD(lr=0.1), comm, double_buffering=True, **kwargs
    )
    return optimizer.setup(model)


@pytest.mark.mpi
@pytest.mark.parametrize("name", CPU_COMMUNICATORS)
def test_k_steps_equal_a_reference_with_one_step_stale_averaged_gradients(name):
    comm = chainermn.create_communicator(name)
    numpy.random.seed(0)
    reference = MLP()
    model = reference.copy(mode="copy")
    if comm.rank != 0:  # the first update must broadcast rank 0's parameters
        for param in model.params():
            param.array[...] = comm.rank + 7
    optimizer = _double_buffered(comm, model)
    steps = 5
    for step in range(steps):
        optimizer.update(model, *rank_data(comm.rank, step=step))
    assert optimizer.t == steps - 2
    expected = _stale_reference(comm.size, steps, reference)
    for (n, p), (_, q) in zip(sorted(model.namedparams()), sorted(expected.namedparams())):
        if comm.size <= 2:  # two addends: every order of summation gives the same bits
            numpy.testing.assert_array_equal(p.array, q.array, err_msg=n)
        else:
            numpy.testing.assert_allclose(p.array, q.array, rtol=1e-5, atol=1e-6, err_msg=n)
    comm.finalize()


class _ThreeLinks(chainer.Chain):
    def __init__(self) -> None:
        super().__init__()
        with self.init_scope():
            self.a = L.Linear(2, 3)
            self.b = L.Linear(3, 4)
            self.c = L.Linear(4, 5)


def _set_grads(model, rank: int, offset: float, skip=()) -> None:
    """Gradient ``rank + offset + i`` on every weight ``i`` (``None`` on biases and ``skip``)."""
    for i, link in enumerate((model.a, model.b, model.c)):
        link.b.grad = None
        link.W.grad = (
            None if link.name in skip else numpy.full_like(link.W.array, rank + offset + i)
        )


@pytest.mark.mpi
@pytest.mark.parametrize("zero_fill", [True, False])
def test_each_update_applies_the_previous_average(zero_fill):
    comm = chainermn.create_communicator("flat")
    numpy.random.seed(3)
    model = _ThreeLinks()
    for param in model.params():
        param.array[...] = comm.rank + 1  # rank 0's 1.0 wins the broadcast
    actual = chainer.optimizers.SGD(lr=0.5)
    optimizer = chainermn.create_multi_node_optimizer(
        actual, comm, double_buffering=True, zero_fill=zero_fill
    )
    assert optimizer.setup(model) is optimizer
    _set_grads(model, comm.rank, 100.0)
    optimizer.update()  # broadcast only
    assert actual.t == 0
    for param in model.params():
        numpy.testing.assert_array_equal(param.array, 1.0)
    base = (comm.size - 1) / 2  # the mean of the ranks
    _set_grads(model, comm.rank, 0.0, skip=("c",))  # c unused on every rank
    optimizer.update()  # starts averaging, does not update
    optimizer.wait()
    assert actual.t == 0
    spare = optimizer.communicated_target
    numpy.testing.assert_array_equal(spare.a.W.grad, numpy.full((3, 2), base, "f"))
    numpy.testing.assert_array_equal(spare.b.W.grad, numpy.full((4, 3), base + 1, "f"))
    if zero_fill:
        numpy.testing.assert_array_equal(spare.c.W.grad, numpy.zeros((5, 4), "f"))
        numpy.testing.assert_array_equal(spare.a.b.grad, numpy.zeros(3, "f"))
    else:
        assert spare.c.W.grad is None and spare.a.b.grad is None
    _set_grads(model, comm.rank, 3.0)
    optimizer.update()  # applies the average of the second update
    optimizer.wait()
    assert actual.t == 1
    numpy.testing.assert_array_equal(model.a.W.array, numpy.float32(1 - 0.5 * base))
    numpy.testing.assert_array_equal(model.b.W.array, numpy.float32(1 - 0.5 * (base + 1)))
    numpy.testing.assert_array_equal(model.c.W.array, 1.0)  # a zero or no gradient
    numpy.testing.assert_array_equal(spare.c.W.grad, numpy.full((5, 4), base + 5, "f"))
    comm.finalize()


@pytest.mark.mpi
def test_float16_wire_stays_within_its_documented_tolerance():
    comm = chainermn.create_communicator("flat", allreduce_grad_dtype=numpy.float16)
    model = _ThreeLinks()
    optimizer = _double_buffered(comm, model)
    optimizer.update()
    everyone = [numpy.random.RandomState(r).uniform(-1, 1, (4, 3)) for r in range(comm.size)]
    model.b.W.grad = everyone[comm.rank].astype(numpy.float32)
    optimizer.update()
    optimizer.wait()
    averaged = optimizer.communicated_target.b.W.grad
    assert averaged.dtype == numpy.float32
    bound = comm.size * 2.0**-11 * max(numpy.abs(g).max() for g in everyone)
    numpy.testing.assert_allclose(averaged, numpy.mean(everyone, axis=0), rtol=0, atol=bound)
    comm.finalize()


@pytest.mark.mpi
def test_a_link_added_later_is_broadcast_and_restarts_the_sequence():
    comm = chainermn.create_communicator("naive")
    numpy.random.seed(4)
    model = MLP()
    optimizer = _double_buffered(comm, model)
    for step in range(3):
        optimizer.update(model, *rank_data(comm.rank, step=step))
    assert optimizer.t == 1
    with model.init_scope():
        model.extra = L.Linear(2, 2)
        model.extra.W.array[...] = comm.rank
    optimizer.setup(model)
    optimizer.update(model, *rank_data(comm.rank))  # broadcast again
    optimizer.update(model, *rank_data(comm.rank))  # starts averaging again
    assert optimizer.t == 0
    gathered = comm.mpi_comm.allgather(model.extra.W.array)
    for other in gathered:
        numpy.testing.assert_array_equal(other, 0.0)
    comm.finalize()


@pytest.mark.mpi
def test_parameters_loaded_on_every_rank_are_not_broadcast_again():
    comm = chainermn.create_communicator("flat")
    model = MLP()
    for param in model.params():
        param.array[...] = comm.rank
    optimizer = _double_buffered(comm, model)
    optimizer._parameters_in_sync()  # as the checkpointer says after loading one set
    optimizer.update(model, *rank_data(comm.rank))
    for param in model.params():
        numpy.testing.assert_array_equal(param.array, comm.rank)
    assert optimizer.t == 0
    optimizer.update(model, *rank_data(comm.rank))
    assert optimizer.t == 1
    comm.finalize()


@pytest.mark.mpi
def test_a_gradient_missing_on_one_rank_raises_on_every_rank():
    comm = chainermn.create_communicator("flat")
    model = MLP()
    optimizer = _double_buffered(comm, model, zero_fill=False)
    optimizer.update(model, *rank_data(comm.rank))
    model.cleargrads()
    model(*rank_data(comm.rank)).backward()
    if comm.rank == comm.size - 1:
        model.l2.W.grad = None
    update_raises_on_every_rank(comm, optimizer, r"double buffering.*models differ")
    comm.finalize()


@pytest.mark.mpi
def test_dropping_the_optimizer_waits_for_the_average_in_flight():
    comm = chainermn.create_communicator("flat")
    model = MLP()
    optimizer = _double_buffered(comm, model)
    optimizer.update(model, *rank_data(comm.rank))
    optimizer.update(model, *rank_data(comm.rank))
    requests = optimizer._mean.pending[0]
    assert requests
    del optimizer
    from mpi4py import MPI

    assert all(request == MPI.REQUEST_NULL for request in requests)
    comm.finalize()


def test_double_buffering_and_bucketed_are_exclusive():
    comm = chainermn.create_communicator("naive")
    with pytest.raises(ValueError, match="cannot be combined"):
        chainermn.create_multi_node_optimizer(
            chainer.optimizers.SGD(), comm, double_buffering=True, bucketed=True
        )


def test_a_communicator_without_a_background_average_is_refused():
    class Custom(chainermn.CommunicatorBase):
        rank = size = intra_rank = intra_size = inter_rank = inter_size = 0

    Custom.__abstractmethods__ = frozenset()
    with pytest.raises(ValueError, match="got Custom"):
        chainermn.create_multi_node_optimizer(chainer.optimizers.SGD(), Custom(), True)


def test_attributes_and_serialize_are_the_actual_optimizers():
    comm = chainermn.create_communicator("naive")
    optimizer = _double_buffered(comm, MLP())
    actual = optimizer.actual_optimizer
    assert optimizer.lr == 0.1
    optimizer.lr = 0.5
    assert actual.lr == 0.5
    optimizer.update(optimizer.target, *rank_data(0))
    for step in range(3):
        optimizer.update(optimizer.target, *rank_data(0, step=step))
    assert actual.t == 2
    saved = serializers.DictionarySerializer()
    optimizer.serialize(saved)
    fresh = chainer.optimizers.MomentumSGD().setup(optimizer.target.copy(mode="copy"))
    fresh.serialize(serializers.NpzDeserializer(saved.target))
    assert fresh.t == 2
    for (_, p), (_, q) in zip(
        sorted(optimizer.target.namedparams()), sorted(fresh.target.namedparams())
    ):
        numpy.testing.assert_array_equal(p.update_rule.state["v"], q.update_rule.state["v"])
