"""The background average of double buffering gives the blocking average's values: pieces of
large gradients, several packed messages, copies of non-contiguous gradients, float16 (mpi)."""

import numpy
import pytest

import chainer
import chainermn
from chainermn.communicators import _mean_plan

PIECE = _mean_plan.PIECE_BYTES // 4  # float32 elements per piece of a large gradient
PACKED = _mean_plan.PACKED_BYTES // 4  # float32 elements per packed message
# "big": 2.5 messages reduced in place; "fortran": large and copied (non-contiguous);
# "c*": 900 KiB each, packed into two messages; "tiny": packed.
SHAPES = {"big": (5, PIECE // 2), "fortran": (700, 500), "tiny": (3,)}
SHAPES.update({f"c{i}": (230400,) for i in range(PACKED // 230400 + 2)})


def _model_with_grads(rank: int) -> chainer.Chain:
    rng = numpy.random.RandomState(11 + rank)
    model = chainer.Chain()
    with model.init_scope():
        for key, shape in SHAPES.items():
            param = chainer.Parameter(numpy.zeros(shape, numpy.float32))
            param.grad = rng.uniform(-1, 1, shape).astype(numpy.float32)
            setattr(model, key, param)
    model.fortran.grad = numpy.asfortranarray(model.fortran.grad)
    return model


@pytest.mark.mpi
@pytest.mark.parametrize("wire", [None, numpy.float16])
def test_background_average_equals_the_blocking_one(wire):
    comm = chainermn.create_communicator("flat", allreduce_grad_dtype=wire)
    blocking, background = _model_with_grads(comm.rank), _model_with_grads(comm.rank)
    big = background.big.grad
    comm.multi_node_mean_grad(blocking)
    mean = comm._make_nonblocking_mean()
    mean.start(background, zero_fill=False)
    assert mean.pending is not None
    mean.wait()
    assert mean.pending is None
    assert background.big.grad is big  # reduced in place
    for key in SHAPES:
        expected = getattr(blocking, key).grad
        actual = getattr(background, key).grad
        if comm.size <= 2:  # two addends: the same bits in any order
            numpy.testing.assert_array_equal(actual, expected, err_msg=key)
        else:
            numpy.testing.assert_allclose(actual, expected, rtol=1e-6, atol=1e-6, err_msg=key)
    mean.wait()  # nothing in flight: returns at once
    comm.finalize()
