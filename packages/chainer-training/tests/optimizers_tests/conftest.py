"""Tiny models and a quadratic loss for the optimizer tests (chainer-core only, no links).

Handed to tests through the ``kit`` fixture, since test modules are imported by path.
"""

import types

import numpy
import pytest

import chainer
from chainer._ops.array_ops import sum as sum_all
from chainer.link import Link
from chainer.optimizers._chunks import SINGLE_CALL_SIZE

# Chunked (longer than a single call) and not a multiple of the chunk: every boundary case.
BIG_SIZE = SINGLE_CALL_SIZE + 3


class Quadratic(Link):
    """Parameters ``w`` (3, 5) and ``big`` (BIG_SIZE,), and the loss
    ``0.5 * sum(curvature * (p - target)**2)`` over both."""

    def __init__(self, dtype=numpy.float32, seed=0, big_size=BIG_SIZE):
        super().__init__()
        rng = numpy.random.default_rng(seed)
        with self.init_scope():
            self.w = chainer.Parameter(rng.uniform(-1, 1, (3, 5)).astype(dtype))
            self.big = chainer.Parameter(rng.uniform(-1, 1, big_size).astype(dtype))
        self.targets = {
            name: rng.uniform(-0.5, 0.5, p.shape).astype(dtype)
            for name, p in (("w", self.w), ("big", self.big))
        }
        self.curvatures = {
            name: rng.uniform(0.5, 2.0, p.shape).astype(dtype)
            for name, p in (("w", self.w), ("big", self.big))
        }

    def forward(self):
        loss = 0
        for name in ("w", "big"):
            diff = getattr(self, name) - self.targets[name]
            loss = loss + sum_all(self.curvatures[name] * diff * diff) * 0.5
        return loss

    def distance(self):
        """Largest distance of any parameter element from its optimum."""
        return max(
            float(numpy.max(numpy.abs(getattr(self, n).array - self.targets[n])))
            for n in ("w", "big")
        )


@pytest.fixture
def kit():
    return types.SimpleNamespace(Quadratic=Quadratic, BIG_SIZE=BIG_SIZE)


@pytest.fixture
def spy_driver(monkeypatch):
    """``spy_driver(module, name)``: a list that receives the parameter list of every call of
    the grouped driver ``module.name``, which still runs."""

    def spy(module, name):
        calls = []
        driver = getattr(module, name)

        def record(params):
            calls.append(list(params))
            driver(params)

        monkeypatch.setattr(module, name, record)
        return calls

    return spy
