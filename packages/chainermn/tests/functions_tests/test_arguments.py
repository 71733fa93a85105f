"""One process: pseudo_connect's gradients, and the errors of bad arguments (no peers needed)."""

import numpy
import pytest

import chainer
import chainermn
import chainermn.functions as mnf
from chainer import gradient_check


@pytest.fixture(scope="module")
def comm():
    return chainermn.create_communicator("naive")


def test_pseudo_connect_passes_the_values_and_gives_the_delegate_a_zero_gradient():
    rng = numpy.random.RandomState(0)
    delegate = rng.uniform(-1, 1, (3, 2))
    xs = (rng.uniform(-1, 1, (4, 5)), rng.uniform(-1, 1, ()))
    ys = mnf.pseudo_connect(chainer.Variable(delegate), *[chainer.Variable(x) for x in xs])
    assert isinstance(ys, tuple) and len(ys) == 2
    for x, y in zip(xs, ys):
        numpy.testing.assert_array_equal(y.array, x)
    gys = tuple(rng.uniform(-1, 1, x.shape) for x in xs)
    ggxs = (rng.uniform(-1, 1, (3, 2)), *[rng.uniform(-1, 1, x.shape) for x in xs])
    gradient_check.check_backward(mnf.pseudo_connect, (delegate, *xs), gys, dtype=numpy.float64)
    gradient_check.check_double_backward(
        mnf.pseudo_connect, (delegate, *xs), gys, ggxs, dtype=numpy.float64
    )
    d = chainer.Variable(delegate)
    (y,) = mnf.pseudo_connect(d, xs[0])
    y.grad = numpy.ones_like(xs[0])
    y.backward()
    numpy.testing.assert_array_equal(d.grad, numpy.zeros((3, 2)))


def test_pseudo_connect_without_a_delegate_and_with_arrays():
    (y,) = mnf.pseudo_connect(None, numpy.ones(2, numpy.float32))
    assert y.requires_grad  # the empty placeholder delegate requires grad
    with pytest.raises(TypeError, match=r"actual_variables\[0\] must be a chainer.Variable"):
        mnf.pseudo_connect(None, [1.0])


@pytest.mark.parametrize(
    ("rank", "error", "message"),
    [
        (0, ValueError, "rank 0 is this process"),
        (5, ValueError, r"rank 5 is outside the communicator \(ranks 0 to"),
        (-1, ValueError, "rank -1 is outside"),
        ("1", TypeError, "rank must be an int, got str"),
    ],
)
def test_send_and_recv_check_the_peer_rank(rank, error, message):
    comm = chainermn.create_communicator("naive")
    if comm.rank != 0 or (rank == 5 and comm.size > 5):
        pytest.skip("rank 0 of a small job")
    x = chainer.Variable(numpy.ones(2))
    with pytest.raises(error, match=f"send: {message}"):
        mnf.send(x, comm, rank)
    with pytest.raises(error, match=f"recv: {message}"):
        mnf.recv(comm, rank)


def test_tags_must_be_non_negative_ints(comm):
    with pytest.raises(ValueError, match="send: tag must be an int >= 0, got -1"):
        mnf.send(numpy.ones(1), comm, (comm.rank + 1) % max(comm.size, 2), tag=-1)


def test_collectives_check_the_root(comm):
    for function, arg in ((mnf.bcast, None), (mnf.gather, numpy.ones(1)), (mnf.scatter, None)):
        with pytest.raises(ValueError, match=f"root {comm.size} is outside the communicator"):
            function(comm, arg, root=comm.size)


def test_one_process_collectives_are_identities(comm):
    if comm.size != 1:
        pytest.skip("one process only")
    x = chainer.Variable(numpy.arange(3.0))
    (y,) = mnf.allgather(comm, x)
    z = mnf.bcast(comm, x)
    (w,) = mnf.alltoall(comm, [x])
    s = mnf.scatter(comm, [x])
    (g,) = mnf.gather(comm, x)
    chainer.functions.sum(y + 2 * z + 3 * w + 4 * s + 5 * g).backward()
    numpy.testing.assert_array_equal(x.grad, numpy.full(3, 15.0))


def test_recv_timeout_configuration():
    comm = chainermn.create_communicator("naive", recv_timeout=2.5)
    assert comm.get_config("recv_timeout") == 2.5
    assert chainermn.create_communicator("naive").get_config("recv_timeout") is None
    with pytest.raises(ValueError, match="recv_timeout must be None or seconds > 0, got 0"):
        comm.set_config("recv_timeout", 0)


def test_multi_node_chain_list_and_rnn_check_their_ranks(comm):
    chain = chainermn.MultiNodeChainList(comm)
    with pytest.raises(ValueError, match=f"rank_in: rank {comm.size} is outside"):
        chain.add_link(chainer.links.Linear(2, 2), rank_in=[0, comm.size])
    with pytest.raises(ValueError, match="rank_out is an empty list"):
        chain.add_link(chainer.links.Linear(2, 2), rank_out=[])
    with pytest.raises(ValueError, match=f"rank_out: rank {comm.rank} is this process"):
        chainermn.links.create_multi_node_n_step_rnn(
            chainer.links.NStepLSTM(1, 2, 2, 0.0), comm, rank_out=comm.rank
        )


def test_a_component_receiving_from_itself_needs_an_earlier_local_send(comm):
    chain = chainermn.MultiNodeChainList(comm)
    chain.add_link(chainer.links.Linear(2, 2), rank_in=comm.rank, rank_out=None)
    with pytest.raises(ValueError, match="component 0 receives from this process"):
        chain(numpy.ones((1, 2), numpy.float32))


def test_local_components_pass_variables_in_order(comm):
    # rank_in/rank_out naming this process: no communication at all.
    first, second = chainer.links.Linear(2, 2), chainer.links.Linear(2, 2)
    chain = chainermn.MultiNodeChainList(comm)
    chain.add_link(first, rank_in=None, rank_out=comm.rank)
    chain.add_link(second, rank_in=comm.rank, rank_out=None)
    x = numpy.ones((1, 2), numpy.float32)
    numpy.testing.assert_array_equal(chain(x).array, second(first(x)).array)
