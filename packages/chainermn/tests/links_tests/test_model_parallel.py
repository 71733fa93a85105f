"""MultiNodeChainList and create_multi_node_n_step_rnn: gradients equal one process's (mpi).

Every process builds every process's part (same seeds), runs the whole model in one process
and compares its own part's gradients with that graph's.
"""

import copy

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
import chainermn
import chainermn.functions as mnf

pytestmark = pytest.mark.mpi


class Stage(chainer.Chain):
    """tanh(W (x_1 + ... + x_k) + b), with weights fixed by ``seed``."""

    def __init__(self, seed: int, n: int = 4) -> None:
        super().__init__()
        rng = numpy.random.RandomState(seed)
        with self.init_scope():
            self.l = L.Linear(
                n, n, initialW=rng.uniform(-1, 1, (n, n)), initial_bias=rng.uniform(-1, 1, n)
            )

    def forward(self, *xs):
        return F.tanh(self.l(sum(xs[1:], xs[0])))


class Pair(chainer.Chain):
    """Two stages of one input: returns a tuple (sent as one message)."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        with self.init_scope():
            self.a = Stage(seed)
            self.b = Stage(seed + 50)

    def forward(self, x):
        return self.a(x), self.b(x)


class Unpair(chainer.Chain):
    """Receives a tuple from one rank."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        with self.init_scope():
            self.s = Stage(seed)

    def forward(self, pair):
        return self.s(pair[0] * pair[1])


def _input(seed: int):
    return numpy.random.RandomState(500 + seed).uniform(-1, 1, (3, 4)).astype(numpy.float32)


def _assert_same_grads(link, reference) -> None:
    mine = dict(link.namedparams())
    for name, param in reference.namedparams():
        numpy.testing.assert_allclose(mine[name].grad, param.grad, rtol=1e-5, atol=1e-7)


def test_a_chain_split_across_processes(comm):
    # Rank r holds stage r; rank 0 feeds the input and gets the output back (a cycle).
    rank, size = comm.rank, comm.size
    stages = [Stage(r) for r in range(size)]
    model = chainermn.MultiNodeChainList(comm)
    if rank == 0:
        model.add_link(copy.deepcopy(stages[0]), rank_in=None, rank_out=1)
        model.add_link(Stage(99), rank_in=size - 1, rank_out=None)
        y = model(_input(0))
        loss = F.sum(y * y)
        loss.backward()
    else:
        model.add_link(copy.deepcopy(stages[rank]), rank_in=rank - 1, rank_out=(rank + 1) % size)
        model().backward()

    head = Stage(99)
    h = _input(0)
    for stage in stages:
        h = stage(h)
    expected = F.sum(head(h) ** 2)
    expected.backward()
    _assert_same_grads(model[0], stages[rank])
    if rank == 0:
        numpy.testing.assert_allclose(loss.array, expected.array, rtol=1e-6)
        _assert_same_grads(model[1], head)


def test_a_branching_and_merging_graph(comm):
    # Rank 0: h = A(x) to itself and to every other rank; rank r returns C_r(h); rank 0
    # merges y = B(h + C_1(h) + ... ) . The first rank_in/rank_out entry is rank 0 itself.
    rank, size = comm.rank, comm.size
    everyone = list(range(size))
    a, b = Stage(100), Stage(101)
    children = {r: Stage(r) for r in range(1, size)}
    model = chainermn.MultiNodeChainList(comm)
    if rank == 0:
        model.add_link(copy.deepcopy(a), rank_in=None, rank_out=everyone)
        model.add_link(copy.deepcopy(b), rank_in=everyone, rank_out=None)
        y = model(_input(1))
        F.sum(y * y).backward()
    else:
        model.add_link(copy.deepcopy(children[rank]), rank_in=0, rank_out=0)
        model().backward()

    h = a(_input(1))
    y = b(h, *[children[r](h) for r in range(1, size)])
    F.sum(y * y).backward()
    if rank == 0:
        _assert_same_grads(model[0], a)
        _assert_same_grads(model[1], b)
    else:
        _assert_same_grads(model[0], children[rank])


def test_outputs_in_the_middle_and_sends_after_them(comm):
    # Rank r: out_r = Q_r(received from rank r-1), then sends P_r(x_r) to rank r+1. Rank 0
    # sends first. Each rank's loss is sum(out_r**2); one process sums them all.
    rank, size = comm.rank, comm.size
    senders = [Stage(10 + r) for r in range(size)]
    receivers = [Stage(20 + r) for r in range(size)]
    prev, nxt = (rank - 1) % size, (rank + 1) % size
    receiver, sender = copy.deepcopy(receivers[rank]), copy.deepcopy(senders[rank])
    components = [(receiver, prev, None), (sender, None, nxt)]
    if rank == 0:
        components.reverse()
    model = chainermn.MultiNodeChainList(comm)
    for link, rank_in, rank_out in components:
        model.add_link(link, rank_in=rank_in, rank_out=rank_out)
    out = model(_input(rank))
    F.sum(out * out).backward()

    total = sum(
        F.sum(receivers[r](senders[(r - 1) % size](_input((r - 1) % size))) ** 2)
        for r in range(size)
    )
    total.backward()
    _assert_same_grads(receiver, receivers[rank])
    _assert_same_grads(sender, senders[rank])


def test_a_tuple_sent_to_a_peer_and_a_result_sent_back(comm):
    rank = comm.rank
    pair, unpair, head = Pair(30), Unpair(31), Stage(32)
    model = chainermn.MultiNodeChainList(comm)
    if rank == 0:
        model.add_link(copy.deepcopy(pair), rank_in=None, rank_out=1)
        model.add_link(copy.deepcopy(head), rank_in=1, rank_out=None)
        y = model(_input(2))
        F.sum(y).backward()
    elif rank == 1:
        model.add_link(copy.deepcopy(unpair), rank_in=0, rank_out=0)
        model().backward()
    else:
        return
    F.sum(head(unpair(pair(_input(2))))).backward()
    _assert_same_grads(model[0], pair if rank == 0 else unpair)


def test_an_lstm_split_across_processes(comm):
    # Rank r runs LSTM r on its own sequences, starting from rank r-1's final states.
    rank, size = comm.rank, comm.size
    lstms = []
    for r in range(size):
        numpy.random.seed(r)
        lstms.append(L.NStepLSTM(1, 3, 3, 0.0))

    def sequences(r):
        rng = numpy.random.RandomState(700 + r)
        return [rng.uniform(-1, 1, (n, 3)).astype(numpy.float32) for n in (3, 2)]

    rnn = chainermn.links.create_multi_node_n_step_rnn(
        copy.deepcopy(lstms[rank]),
        comm,
        rank_in=rank - 1 if rank > 0 else None,
        rank_out=rank + 1 if rank < size - 1 else None,
    )
    hy, cy, ys, delegate = rnn(sequences(rank))
    assert (delegate is None) == (rank == size - 1)
    loss = F.sum(F.concat(ys, axis=0) ** 2)
    (err,) = mnf.pseudo_connect(delegate, loss)
    err.backward()

    hx = cx = None
    total = 0
    for r in range(size):
        hx, cx, ys_single = lstms[r](hx, cx, sequences(r))
        total += F.sum(F.concat(ys_single, axis=0) ** 2)
        if r == rank:
            numpy.testing.assert_allclose(hy.array, hx.array, rtol=1e-6)
    total.backward()
    _assert_same_grads(rnn.actual_rnn, lstms[rank])


def test_add_link_checks_the_ranks(comm):
    model = chainermn.MultiNodeChainList(comm)
    with pytest.raises(ValueError, match=f"rank_out: rank {comm.size} is outside"):
        model.add_link(Stage(0), rank_out=comm.size)
    with pytest.raises(TypeError, match="rank_in must be None, a rank"):
        model.add_link(Stage(0), rank_in="1")
    assert len(model) == 0
