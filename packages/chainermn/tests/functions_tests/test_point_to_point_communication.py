"""send / recv / pseudo_connect across processes: gradients equal one process's graph (mpi)."""

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
import chainermn
import chainermn.functions as mnf

pytestmark = pytest.mark.mpi


def _layer(index: int, n_in: int = 4, n_out: int = 4) -> L.Linear:
    """The layer of stage ``index``; every process can build any stage's layer."""
    rng = numpy.random.RandomState(index)
    return L.Linear(
        n_in,
        n_out,
        initialW=rng.uniform(-1, 1, (n_out, n_in)),
        initial_bias=rng.uniform(-1, 1, n_out),
    )


def _input():
    return numpy.random.RandomState(99).uniform(-1, 1, (3, 4)).astype(numpy.float32)


def _single_process_chain(n_stages: int):
    """Stage r = tanh(layer r); loss = sum(y**2) after the last stage (or back at stage 0)."""
    layers = [_layer(r) for r in range(n_stages)]
    x = chainer.Variable(_input())
    h = x
    for layer in layers:
        h = F.tanh(layer(h))
    loss = F.sum(h * h)
    loss.backward()
    return loss.array, layers, x


def test_a_chain_split_across_processes_has_the_single_process_gradients(comm):
    rank, size = comm.rank, comm.size
    layer = _layer(rank)
    x = chainer.Variable(_input())
    if rank == 0:
        phi = mnf.send(F.tanh(layer(x)), comm, rank=1)
        phi.backward()
    else:
        h = mnf.recv(comm, rank=rank - 1)
        h = F.tanh(layer(h))
        if rank < size - 1:
            mnf.send(h, comm, rank=rank + 1).backward()
        else:
            loss = F.sum(h * h)
            loss.backward()
    expected_loss, layers, x_single = _single_process_chain(size)
    if rank == size - 1:
        numpy.testing.assert_allclose(loss.array, expected_loss, rtol=1e-6)
    numpy.testing.assert_allclose(layer.W.grad, layers[rank].W.grad, rtol=1e-5)
    numpy.testing.assert_allclose(layer.b.grad, layers[rank].b.grad, rtol=1e-5)
    if rank == 0:
        numpy.testing.assert_allclose(x.grad, x_single.grad, rtol=1e-5)


def test_a_cycle_back_to_rank_0_needs_the_delegate_variable(comm):
    # Rank 0 sends, the others pass it on, and rank 0 receives the result: only the delegate
    # joins rank 0's two graph components, so backward reaches its first layer.
    rank, size = comm.rank, comm.size
    layer = _layer(rank)
    if rank == 0:
        x = chainer.Variable(_input())
        phi = mnf.send(F.tanh(layer(x)), comm, rank=1)
        h = mnf.recv(comm, rank=size - 1, delegate_variable=phi)
        loss = F.sum(h * h)
        loss.backward()
    else:
        h = F.tanh(layer(mnf.recv(comm, rank=rank - 1)))
        mnf.send(h, comm, rank=(rank + 1) % size).backward()
    expected_loss, layers, x_single = _single_process_chain(size)
    numpy.testing.assert_allclose(layer.W.grad, layers[rank].W.grad, rtol=1e-5)
    if rank == 0:
        numpy.testing.assert_allclose(loss.array, expected_loss, rtol=1e-6)
        numpy.testing.assert_allclose(x.grad, x_single.grad, rtol=1e-5)


def test_tuples_tags_and_pseudo_connect(comm):
    # Rank 0 sends a pair with tag 3 and an array (no Variable) with tag 4, and joins the two
    # delegates; the last rank receives them (in the other order) and adds a loss.
    rank, last = comm.rank, comm.size - 1
    a = chainer.Variable(numpy.arange(6.0).reshape(2, 3))
    b = chainer.Variable(numpy.ones((2, 3)))
    const = numpy.full((2,), 5.0)
    if rank == 0:
        phi1 = mnf.send((a, b * 2), comm, rank=last, tag=3)
        phi2 = mnf.send(const, comm, rank=last, tag=4)
        (psi,) = mnf.pseudo_connect(phi1, phi2)
        psi.backward()
        numpy.testing.assert_array_equal(a.grad, 2 * a.array)  # d/da sum(a**2)
        numpy.testing.assert_array_equal(b.grad, numpy.full((2, 3), 6.0))  # d/db sum(3 * 2b)
    elif rank == last:
        (c,) = mnf.recv(comm, rank=0, tag=4, force_tuple=True)
        numpy.testing.assert_array_equal(c.array, const)
        pa, pb = mnf.recv(comm, rank=0, tag=3)
        numpy.testing.assert_array_equal(pb.array, 2 * numpy.ones((2, 3)))
        loss = F.sum(pa * pa) + F.sum(3 * pb) + F.sum(c)
        loss.backward()


def test_recv_without_a_send_times_out_naming_the_peer_and_tag(comm):
    timed = chainermn.create_communicator("naive", recv_timeout=0.3)
    if comm.rank == 0:
        with pytest.raises(TimeoutError, match=r"recv from rank 1 with tag 5: nothing arrived"):
            mnf.recv(timed, rank=1, tag=5)
    timed.mpi_comm.Barrier()


def test_a_send_whose_peer_never_returns_the_gradient_times_out(comm):
    # The receiver drops its output (never backpropagates): the sender's backward says so.
    timed = chainermn.create_communicator("naive", recv_timeout=0.3)
    if comm.rank == 0:
        phi = mnf.send(chainer.Variable(numpy.ones(2)), timed, rank=1, tag=2)
        with pytest.raises(TimeoutError, match="recv from rank 1 with tag 2"):
            phi.backward()
    elif comm.rank == 1:
        mnf.recv(timed, rank=0, tag=2)
    timed.mpi_comm.Barrier()


def test_sending_a_non_variable_raises_on_both_sides(comm):
    if comm.rank == 0:
        with pytest.raises(TypeError, match="send: x must be a chainer.Variable or an array"):
            mnf.send("text", comm, rank=1)
    elif comm.rank == 1:
        with pytest.raises(ValueError, match="recv from rank 0: the sender failed"):
            mnf.recv(comm, rank=0)
