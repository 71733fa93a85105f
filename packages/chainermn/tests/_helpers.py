"""Shared pieces of the chainermn tests (importable as ``_helpers`` from every test module)."""

from __future__ import annotations

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L

CPU_COMMUNICATORS = [
    "naive",
    "flat",
    "hierarchical",
    "two_dimensional",
    "single_node",
    "non_cuda_aware",
]


class MLP(chainer.Chain):
    """A small two-layer perceptron."""

    def __init__(self, n_in: int = 4, n_hidden: int = 5, n_out: int = 3) -> None:
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(n_in, n_hidden)
            self.l2 = L.Linear(n_hidden, n_out)

    def forward(self, x, t=None):
        """The logits, or the mean cross-entropy loss when labels ``t`` are given."""
        y = self.l2(F.tanh(self.l1(x)))
        return y if t is None else F.softmax_cross_entropy(y, t)


def rank_data(rank: int, n: int = 6, n_in: int = 4, n_out: int = 3, step: int = 0):
    """A batch that depends only on (rank, step): every process can rebuild any rank's batch."""
    rng = numpy.random.RandomState(1000 * step + rank)
    x = rng.uniform(-1, 1, (n, n_in)).astype(numpy.float32)
    t = rng.randint(0, n_out, n).astype(numpy.int32)
    return x, t


def update_raises_on_every_rank(comm, optimizer, match: str) -> None:
    """``optimizer.update()`` raises ValueError matching ``match`` on every rank (with one
    process there is no other rank to disagree with: the update goes through)."""
    if comm.size == 1:
        optimizer.update()
        return
    with pytest.raises(ValueError, match=match):
        optimizer.update()
