"""double_buffering=True: each update applies the gradients averaged at the previous one
while its own are averaged in the background (v7's step sequence), on every MPI communicator."""

import numpy
import pytest
from _helpers import CPU_COMMUNICATORS, MLP, rank_data

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
