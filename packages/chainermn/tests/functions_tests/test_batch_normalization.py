"""chainermn.functions.batch_normalization: global batch statistics, against NumPy maths."""

import numpy
import pytest

import chainer
import chainermn
from chainer import gradient_check
from chainermn.functions.batch_normalization import (
    MultiNodeBatchNormalizationFunction,
    get_communication_backend,
)


def _rank_batch(rank, n=3, channels=4):
    rng = numpy.random.RandomState(10 + rank)
    return rng.standard_normal((n, channels, 2)) * (rank + 1) + rank


def _params(channels=4):
    gamma = numpy.linspace(0.5, 2.0, channels)
    beta = numpy.linspace(-1.0, 1.0, channels)
    return gamma, beta


def _reference(x, gamma, beta, gy, eps):
    """Batch normalization over axes (0, 2) and its gradients, written out in NumPy."""
    axes, shape = (0, 2), (1, -1, 1)
    count = x.size // x.shape[1]
    mean = x.mean(axis=axes)
    var = x.var(axis=axes)
    inv_std = 1 / numpy.sqrt(var + eps)
    x_hat = (x - mean.reshape(shape)) * inv_std.reshape(shape)
    y = gamma.reshape(shape) * x_hat + beta.reshape(shape)
    gbeta = gy.sum(axis=axes)
    ggamma = (gy * x_hat).sum(axis=axes)
    gx = (gamma * inv_std).reshape(shape) / count
    gx = gx * (count * gy - gbeta.reshape(shape) - x_hat * ggamma.reshape(shape))
    return y, gx, ggamma, gbeta, mean, var * count / (count - 1)


@pytest.mark.mpi
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_forward_backward_and_running_statistics_cover_every_rank(dtype):
    comm = chainermn.create_communicator("naive")
    everyone = [_rank_batch(r) for r in range(comm.size)]
    weights = [
        numpy.random.RandomState(50 + r).uniform(-1, 1, b.shape) for r, b in enumerate(everyone)
    ]
    gamma, beta = _params()
    eps, decay = 1e-3, 0.75
    running_mean = numpy.full(4, 0.5, dtype)
    running_var = numpy.full(4, 2.0, dtype)

    x = chainer.Variable(everyone[comm.rank].astype(dtype))
    g = chainer.Variable(gamma.astype(dtype))
    b = chainer.Variable(beta.astype(dtype))
    function = MultiNodeBatchNormalizationFunction(
        comm, eps, running_mean, running_var, decay, communication_backend="mpi"
    )
    y = function(x, g, b)
    y.grad = weights[comm.rank].astype(dtype)
    y.backward()

    ref = _reference(numpy.concatenate(everyone), gamma, beta, numpy.concatenate(weights), eps)
    y_all, gx_all, ggamma_all, gbeta_all, mean_all, unbiased_all = ref
    n = everyone[0].shape[0]
    part = slice(comm.rank * n, (comm.rank + 1) * n)
    tol = {"rtol": 1e-5, "atol": 1e-5} if dtype == numpy.float32 else {"rtol": 1e-10}
    assert y.dtype == x.grad.dtype == g.grad.dtype == dtype
    numpy.testing.assert_allclose(y.array, y_all[part], **tol)
    numpy.testing.assert_allclose(x.grad, gx_all[part], **tol)
    # Each rank holds its own batch's share of the parameter gradients.
    numpy.testing.assert_allclose(comm.allreduce(g.grad), ggamma_all, **tol)
    numpy.testing.assert_allclose(comm.allreduce(b.grad), gbeta_all, **tol)
    numpy.testing.assert_allclose(running_mean, decay * 0.5 + (1 - decay) * mean_all, **tol)
    numpy.testing.assert_allclose(running_var, decay * 2.0 + (1 - decay) * unbiased_all, **tol)


@pytest.mark.mpi
def test_float16_input_is_normalized_in_float32_and_returned_in_float16():
    comm = chainermn.create_communicator("naive")
    everyone = [_rank_batch(r) for r in range(comm.size)]
    gamma, beta = _params()
    x = everyone[comm.rank].astype(numpy.float16)
    function = MultiNodeBatchNormalizationFunction(comm)
    y = function(x, gamma.astype(numpy.float32), beta.astype(numpy.float32))
    assert y.dtype == numpy.float16
    halves = numpy.concatenate(everyone).astype(numpy.float16).astype(numpy.float64)
    y_all = _reference(halves, gamma, beta, numpy.zeros_like(halves), 2e-5)[0]
    n = x.shape[0]
    expected = y_all[comm.rank * n : (comm.rank + 1) * n]
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-2, atol=1e-2)


def test_gradients_of_one_process_pass_the_numerical_check():
    # One rank of the job is used alone: the statistics are those of its own batch.
    comm = chainermn.create_communicator("naive", mpi_comm=_self_comm())
    x = _rank_batch(0, n=4)
    gamma, beta = _params()
    gy = numpy.random.RandomState(3).uniform(-1, 1, x.shape)

    def apply(x, gamma, beta):
        return MultiNodeBatchNormalizationFunction(comm, eps=1e-3)(x, gamma, beta)

    gradient_check.check_backward(apply, (x, gamma, beta), gy, dtype=numpy.float64, atol=1e-5)
    y = _reference(x, gamma, beta, gy, 1e-3)[0]
    numpy.testing.assert_allclose(apply(x, gamma, beta).array, y, rtol=1e-10)


def _self_comm():
    from mpi4py import MPI

    return MPI.COMM_SELF


def test_communication_backend_selection():
    comm = chainermn.create_communicator("naive", mpi_comm=_self_comm())
    assert get_communication_backend(comm) == "mpi"
    assert get_communication_backend(comm, "mpi") == "mpi"
    with pytest.raises(ValueError, match=r"must be one of \('auto', 'mpi', 'nccl'\), got 'gloo'"):
        get_communication_backend(comm, "gloo")
    with pytest.raises(ValueError, match="'nccl' needs the 'pure_nccl' communicator, got Naive"):
        MultiNodeBatchNormalizationFunction(comm, communication_backend="nccl")


def test_module_is_reachable_at_the_v7_path():
    assert chainermn.functions.batch_normalization.MultiNodeBatchNormalizationFunction is (
        MultiNodeBatchNormalizationFunction
    )
