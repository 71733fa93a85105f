"""Differentiable collectives: forward against NumPy, gradients against one process (mpi).

Each test's "single-process equivalent" builds every process's data on every process and
backpropagates the sum of all processes' losses through plain Chainer operations: the
gradient a process gets from the collective must equal that graph's gradient for its data.
"""

import numpy
import pytest

import chainer
import chainer.functions as F
import chainermn.functions as mnf

pytestmark = pytest.mark.mpi


def _data(seed, shape):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape)


def _weight(seed, shape):
    return numpy.random.RandomState(1000 + seed).uniform(0.5, 2, shape)


def _loss(weight, y):
    """A loss whose gradient depends on both the weight and the value: sum(w * y**2)."""
    return F.sum(weight * y * y)


def test_allgather(comm):
    n = comm.size
    xs_all = [_data(r, (2, r + 1)) for r in range(n)]
    x = chainer.Variable(xs_all[comm.rank].copy())
    ys = mnf.allgather(comm, x)
    assert len(ys) == n
    for r, y in enumerate(ys):
        numpy.testing.assert_array_equal(y.array, xs_all[r])
    sum(_loss(_weight(10 * comm.rank + i, y.shape), y) for i, y in enumerate(ys)).backward()

    # One process: every rank's loss over every rank's x.
    vs = [chainer.Variable(a.copy()) for a in xs_all]
    total = sum(_loss(_weight(10 * j + i, vs[i].shape), vs[i]) for j in range(n) for i in range(n))
    total.backward()
    numpy.testing.assert_allclose(x.grad, vs[comm.rank].grad, rtol=1e-12)


def test_alltoall(comm):
    n = comm.size

    def piece(src, dst):
        return _data(100 * src + dst, (src + 1, dst + 1))

    xs = [chainer.Variable(piece(comm.rank, d)) for d in range(n)]
    ys = mnf.alltoall(comm, xs)
    for src, y in enumerate(ys):
        numpy.testing.assert_array_equal(y.array, piece(src, comm.rank))
    sum(_loss(_weight(10 * comm.rank + s, y.shape), y) for s, y in enumerate(ys)).backward()

    vs = {(s, d): chainer.Variable(piece(s, d)) for s in range(n) for d in range(n)}
    sum(_loss(_weight(10 * d + s, v.shape), v) for (s, d), v in vs.items()).backward()
    for d in range(n):
        numpy.testing.assert_allclose(xs[d].grad, vs[(comm.rank, d)].grad, rtol=1e-12)


@pytest.mark.parametrize("root", [0, -1])
def test_bcast(comm, root):
    root = root % comm.size
    x = chainer.Variable(_data(7, (3, 2)))
    y = mnf.bcast(comm, x if comm.rank == root else None, root=root)
    numpy.testing.assert_array_equal(y.array, _data(7, (3, 2)))
    _loss(_weight(comm.rank, (3, 2)), y).backward()
    if comm.rank == root:
        v = chainer.Variable(_data(7, (3, 2)))
        sum(_loss(_weight(r, (3, 2)), v) for r in range(comm.size)).backward()
        numpy.testing.assert_allclose(x.grad, v.grad, rtol=1e-12)
    else:
        assert x.grad is None


@pytest.mark.parametrize("root", [0, -1])
def test_gather(comm, root):
    root = root % comm.size
    xs_all = [_data(r, (r + 1, 2)) for r in range(comm.size)]
    x = chainer.Variable(xs_all[comm.rank].copy())
    out = mnf.gather(comm, x, root=root)
    if comm.rank == root:
        assert len(out) == comm.size
        for r, y in enumerate(out):
            numpy.testing.assert_array_equal(y.array, xs_all[r])
        sum(_loss(_weight(r, y.shape), y) for r, y in enumerate(out)).backward()
    else:
        assert out.shape == (0,)  # the delegate
        out.backward()
    v = chainer.Variable(xs_all[comm.rank].copy())
    _loss(_weight(comm.rank, v.shape), v).backward()
    numpy.testing.assert_allclose(x.grad, v.grad, rtol=1e-12)


@pytest.mark.parametrize("root", [0, -1])
def test_scatter(comm, root):
    root = root % comm.size
    xs_all = [_data(r, (r + 2, 3)) for r in range(comm.size)]
    xs = [chainer.Variable(a.copy()) for a in xs_all]
    y = mnf.scatter(comm, xs if comm.rank == root else None, root=root)
    numpy.testing.assert_array_equal(y.array, xs_all[comm.rank])
    _loss(_weight(comm.rank, y.shape), y).backward()
    if comm.rank == root:
        vs = [chainer.Variable(a.copy()) for a in xs_all]
        sum(_loss(_weight(r, v.shape), v) for r, v in enumerate(vs)).backward()
        for x, v in zip(xs, vs):
            numpy.testing.assert_allclose(x.grad, v.grad, rtol=1e-12)


def test_allgather_then_average_is_the_ensemble_mean(comm):
    # The docs' averaging-ensemble pattern: stack, average, then one loss per process.
    x = chainer.Variable(_data(comm.rank, (2, 3)).astype(numpy.float32))
    ys = mnf.allgather(comm, x)
    mean = F.average(F.stack(ys, axis=0), axis=0)
    expected = numpy.mean([_data(r, (2, 3)) for r in range(comm.size)], axis=0)
    numpy.testing.assert_allclose(mean.array, expected, rtol=1e-6)
    F.sum(mean).backward()
    # Every process's loss is sum(mean): d/dx_r = size * (1 / size).
    numpy.testing.assert_allclose(x.grad, numpy.ones((2, 3)), rtol=1e-6)


def test_constant_inputs_still_take_part_in_backward(comm):
    # Arrays instead of variables on some processes: every process's backward must still
    # join the collective of backward (a hang here is a failure under the CI timeout).
    w = chainer.Variable(numpy.full((), 2.0))
    is_root = comm.rank == 0
    results = [
        mnf.bcast(comm, numpy.ones((2, 2)) if is_root else None),
        mnf.allgather(comm, numpy.full(2, float(comm.rank))),
        mnf.alltoall(comm, [numpy.ones(1)] * comm.size),
        mnf.scatter(comm, [numpy.ones(3)] * comm.size if is_root else None),
        mnf.gather(comm, numpy.ones(2)),
    ]
    for out in results:
        w.cleargrad()
        if isinstance(out, chainer.Variable) and out.shape == (0,):  # gather's delegate
            (loss,) = mnf.pseudo_connect(out, F.sum(w * w))
        else:
            outs = out if isinstance(out, tuple) else (out,)
            loss = sum(F.sum(o) for o in outs) * w
        loss.backward()
        assert w.grad is not None


# --- bad input: every process raises, nobody waits -----------------------------------------
def test_bcast_of_a_non_variable_on_the_root_raises_everywhere(comm):
    with pytest.raises((TypeError, ValueError), match="bcast.*must be"):
        mnf.bcast(comm, "not an array" if comm.rank == 0 else None, root=0)


def test_alltoall_with_the_wrong_number_of_pieces_raises_everywhere(comm):
    xs = [numpy.zeros(1)] * (comm.size + (1 if comm.rank == 0 else 0))
    with pytest.raises(ValueError, match=f"tuple or list of {comm.size}"):
        mnf.alltoall(comm, xs)


def test_scatter_of_a_list_with_a_string_raises_everywhere(comm):
    xs = ["bad"] * comm.size if comm.rank == 0 else None
    with pytest.raises((TypeError, ValueError), match="scatter.*xs\\[0\\]"):
        mnf.scatter(comm, xs, root=0)
