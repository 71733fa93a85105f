"""MultiNodeBatchNormalization on k ranks equals BatchNormalization on the whole batch (mpi)."""

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
import chainermn

pytestmark = pytest.mark.mpi


def _batch(rank, n=3, channels=4):
    rng = numpy.random.RandomState(rank)
    return rng.standard_normal((n, channels, 2)).astype(numpy.float32) * (rank + 1) + rank


def test_forward_backward_and_statistics_match_single_process_batch_normalization():
    comm = chainermn.create_communicator("naive")
    mnbn = chainermn.links.MultiNodeBatchNormalization(4, comm, decay=0.5)
    bn = L.BatchNormalization(4, decay=0.5)
    for link in (mnbn, bn):
        link.gamma.array[...] = numpy.arange(1, 5)
        link.beta.array[...] = numpy.arange(4) * 0.5
    everyone = [_batch(r) for r in range(comm.size)]
    # The loss weights differ per rank, so the global statistics matter in backward.
    weights = [numpy.full_like(b, r + 1.0) for r, b in enumerate(everyone)]

    x = chainer.Variable(everyone[comm.rank])
    y = mnbn(x)
    F.sum(y * weights[comm.rank]).backward()
    grads = {n: p.grad.copy() for n, p in mnbn.namedparams()}
    summed = {n: comm.allreduce(g) for n, g in grads.items()}  # the single loss = sum

    x_all = chainer.Variable(numpy.concatenate(everyone))
    y_all = bn(x_all)
    F.sum(y_all * numpy.concatenate(weights)).backward()
    n = everyone[0].shape[0]
    part = slice(comm.rank * n, (comm.rank + 1) * n)
    numpy.testing.assert_allclose(y.array, y_all.array[part], rtol=1e-4, atol=1e-5)
    numpy.testing.assert_allclose(x.grad, x_all.grad[part], rtol=1e-4, atol=1e-5)
    for name, param in bn.namedparams():
        numpy.testing.assert_allclose(summed[name], param.grad, rtol=1e-4, atol=1e-4)
    numpy.testing.assert_allclose(mnbn.avg_mean, bn.avg_mean, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(mnbn.avg_var, bn.avg_var, rtol=1e-4)
    with chainer.using_config("train", False):
        numpy.testing.assert_allclose(mnbn(x).array, bn(x).array, rtol=1e-5, atol=1e-6)


def test_create_mnbn_model_replaces_nested_batch_normalization():
    comm = chainermn.create_communicator("naive")

    class Net(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l = L.Linear(3, 4)
                self.bn = L.BatchNormalization(4, decay=0.7, eps=1e-3)
                self.seq = chainer.Sequential(L.BatchNormalization(4), F.relu)
                self.list = chainer.ChainList(L.BatchNormalization(4, use_beta=False))

    net = Net()
    net.bn.gamma.array[...] = 3.0
    net.bn.avg_mean[...] = 1.5
    converted = chainermn.links.create_mnbn_model(net, comm)
    assert isinstance(net.bn, L.BatchNormalization)  # the original is left alone
    for link in (converted.bn, converted.seq[0], converted.list[0]):
        assert isinstance(link, chainermn.links.MultiNodeBatchNormalization)
    assert (converted.bn.decay, converted.bn.eps) == (0.7, 1e-3)
    numpy.testing.assert_array_equal(converted.bn.gamma.array, 3.0)
    numpy.testing.assert_array_equal(converted.bn.avg_mean, 1.5)
    assert not hasattr(converted.list[0], "beta")
    assert sorted(n for n, _ in converted.namedparams()) == sorted(
        n for n, _ in net.namedparams() if n != "/list/0/beta"
    )
    y = converted.seq(converted.bn(converted.l(numpy.ones((2, 3), numpy.float32))))
    assert y.shape == (2, 4)


def test_unknown_communication_backend_is_refused():
    comm = chainermn.create_communicator("naive")
    with pytest.raises(ValueError, match="communication_backend must be one of"):
        chainermn.links.MultiNodeBatchNormalization(3, comm, communication_backend="gloo")


def test_nccl_backend_needs_the_pure_nccl_communicator():
    comm = chainermn.create_communicator("flat")
    with pytest.raises(ValueError, match="'nccl' needs the 'pure_nccl' communicator, got Flat"):
        chainermn.links.MultiNodeBatchNormalization(3, comm, communication_backend="nccl")
