"""multi_node_mean_grad and bcast_data of every CPU communicator against NumPy (mpi)."""

import numpy
import pytest
from _helpers import CPU_COMMUNICATORS

import chainer
import chainer.links as L
import chainermn

pytestmark = pytest.mark.mpi


class Model(chainer.Chain):
    def __init__(self, dtype=numpy.float32):
        super().__init__()
        init = {
            "initialW": chainer.initializers.Normal(dtype=dtype),
            "initial_bias": chainer.initializers.Zero(dtype=dtype),
        }
        with self.init_scope():
            self.a = L.Linear(3, 4, **init)
            self.b = L.Linear(4, 2, **init)


def _grads(rank, model):
    rng = numpy.random.RandomState(rank)
    return {n: rng.standard_normal(p.shape).astype(p.dtype) for n, p in model.namedparams()}


@pytest.mark.parametrize("name", CPU_COMMUNICATORS)
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_mean_grad_is_the_mean_of_every_rank_gradient(name, dtype):
    comm = chainermn.create_communicator(name)
    model = Model(dtype)
    params = dict(model.namedparams())
    for n, g in _grads(comm.rank, model).items():
        params[n].grad = g
    comm.multi_node_mean_grad(model)
    everyone = [_grads(r, model) for r in range(comm.size)]
    for n, p in model.namedparams():
        expected = numpy.mean([g[n].astype(numpy.float64) for g in everyone], axis=0)
        assert p.grad.dtype == dtype
        numpy.testing.assert_allclose(p.grad, expected, rtol=1e-6, atol=1e-6, err_msg=n)
    comm.finalize()


def test_mean_grad_zero_fill_counts_missing_gradients_as_zero():
    comm = chainermn.create_communicator("flat")
    model = Model()
    for p in model.params():
        p.grad = numpy.full(p.shape, comm.rank + 1.0, numpy.float32)
    if comm.rank % 2 == 1:
        model.b.W.grad = None
    comm.multi_node_mean_grad(model, zero_fill=True)
    everyone = [r + 1.0 for r in range(comm.size)]
    numpy.testing.assert_allclose(model.a.W.grad, numpy.mean(everyone))
    with_b = [r + 1.0 if r % 2 == 0 else 0.0 for r in range(comm.size)]
    numpy.testing.assert_allclose(model.b.W.grad, numpy.mean(with_b))


def test_missing_gradient_without_zero_fill_on_one_rank_is_an_error_everywhere():
    comm = chainermn.create_communicator("flat")
    if comm.size == 1:
        pytest.skip("needs two ranks")
    model = Model()
    for p in model.params():
        p.grad = numpy.ones(p.shape, numpy.float32)
    if comm.rank == 1:
        model.b.W.grad = None
    with pytest.raises(ValueError, match="rank 0 has 4 parameters .* but rank 1 has 3"):
        comm.multi_node_mean_grad(model)


def test_float16_allreduce_stays_within_its_documented_tolerance():
    """float16 on the wire: each value is rounded to float16 (relative error <= 2**-11) and
    every reduction step rounds once more, so the mean is within
    ``size * 2**-11 * max|g|`` of the exact float64 mean (README, "float16 compression")."""
    comm = chainermn.create_communicator("flat", allreduce_grad_dtype=numpy.float16)
    model = Model()
    for n, g in _grads(comm.rank, model).items():
        dict(model.namedparams())[n].grad = g
    comm.multi_node_mean_grad(model)
    everyone = [_grads(r, model) for r in range(comm.size)]
    for n, p in model.namedparams():
        stacked = numpy.array([g[n] for g in everyone], numpy.float64)
        bound = comm.size * 2.0**-11 * numpy.abs(stacked).max()
        assert p.grad.dtype == numpy.float32
        numpy.testing.assert_allclose(p.grad, stacked.mean(axis=0), rtol=0, atol=bound)


def test_bcast_data_copies_rank_0_parameters_in_place():
    comm = chainermn.create_communicator("hierarchical")
    model = Model()
    arrays = [p.array for p in model.params()]
    for p in model.params():
        p.array[...] = comm.rank + numpy.arange(p.size).reshape(p.shape)
    comm.bcast_data(model)
    for p, original in zip(model.params(), arrays):
        assert p.array is original
        numpy.testing.assert_array_equal(p.array, numpy.arange(p.size).reshape(p.shape))


def test_debug_mode_refuses_diverged_gradients():
    comm = chainermn.create_communicator("naive")
    model = Model()
    for p in model.params():
        p.grad = numpy.full(p.shape, numpy.nan, numpy.float32)
    with chainer.using_config("debug", True):
        with pytest.raises(ValueError, match="diverged"):
            comm.multi_node_mean_grad(model)


@pytest.mark.parametrize("name", ["flat", "naive"])
def test_large_gradients_reduced_in_place_and_small_ones_packed(name):
    comm = chainermn.create_communicator(name)
    model = chainer.Chain()
    with model.init_scope():
        model.big = L.Linear(600, 500)  # 300000 floats: over the in-place threshold
        model.small = L.Linear(3, 2)
    big_grad = numpy.full(model.big.W.shape, comm.rank, numpy.float32)
    model.big.W.grad = big_grad
    model.big.b.grad = numpy.full(500, comm.rank, numpy.float32)
    model.small.W.grad = numpy.full((2, 3), 2.0 * comm.rank, numpy.float32)
    model.small.b.grad = numpy.full(2, 3.0 * comm.rank, numpy.float32)
    comm.multi_node_mean_grad(model)
    mean = (comm.size - 1) / 2
    assert model.big.W.grad is big_grad
    numpy.testing.assert_allclose(model.big.W.grad, mean)
    numpy.testing.assert_allclose(model.big.b.grad, mean)
    numpy.testing.assert_allclose(model.small.W.grad, 2 * mean)
    numpy.testing.assert_allclose(model.small.b.grad, 3 * mean)


def test_a_large_non_contiguous_gradient_is_averaged_through_a_copy():
    comm = chainermn.create_communicator("flat")
    model = chainer.Chain()
    with model.init_scope():
        model.p = chainer.Parameter(numpy.zeros((700, 400), numpy.float32))
    grad = numpy.full((400, 700), comm.rank + 1.0, numpy.float32).T  # Fortran order
    model.p.grad = grad
    comm.multi_node_mean_grad(model)
    numpy.testing.assert_allclose(model.p.grad, (comm.size + 1) / 2)


@pytest.mark.parametrize("name", CPU_COMMUNICATORS)
def test_several_large_gradients_and_a_packed_one_are_all_averaged(name):
    # Three large float32 gradients (reduced in place, started together), one large float16
    # gradient (packed on its own: the reduction runs in float32) and two small ones.
    comm = chainermn.create_communicator(name)
    shapes = {"a": (300000,), "b": (520, 600), "c": (262144,), "half": (300000,), "s": (5,)}
    shapes["t"] = (3, 4)
    model = chainer.Chain()
    with model.init_scope():
        for key, shape in shapes.items():
            dtype = numpy.float16 if key == "half" else numpy.float32
            setattr(model, key, chainer.Parameter(numpy.zeros(shape, dtype)))

    def grads_of(rank):
        rng = numpy.random.RandomState(100 + rank)
        return {
            k: rng.uniform(-1, 1, s).astype(getattr(model, k).dtype) for k, s in shapes.items()
        }

    mine = grads_of(comm.rank)
    for key, grad in mine.items():
        getattr(model, key).grad = grad
    comm.multi_node_mean_grad(model)
    everyone = [grads_of(r) for r in range(comm.size)]
    for key in shapes:
        expected = numpy.mean([g[key].astype(numpy.float64) for g in everyone], axis=0)
        grad = getattr(model, key).grad
        assert grad.dtype == getattr(model, key).dtype
        tol = 1e-3 if key == "half" else 1e-6
        numpy.testing.assert_allclose(grad, expected, rtol=tol, atol=tol, err_msg=key)
    assert model.a.grad is mine["a"] and model.half.grad is mine["half"]
