"""The activations with a ChainerX routine run it on ChainerX arrays (no NumPy fallback)."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.activation import (
    clipped_relu,
    crelu,
    elu,
    hard_sigmoid,
    leaky_relu,
    log_softmax,
    prelu,
    relu,
    rrelu,
    sigmoid,
    softmax,
    softplus,
    swish,
    tanh,
)

from ..chainerx_native import forbid_fallback, to_chainerx

W = numpy.array([0.25, -0.5, 2.0], numpy.float32)

NATIVE = [
    (relu.ReLU, F.relu),
    (sigmoid.Sigmoid, F.sigmoid),
    (tanh.Tanh, F.tanh),
    (clipped_relu.ClippedReLU, lambda x: F.clipped_relu(x, 0.7)),
    (crelu.CReLU, F.crelu),
    (elu.ELU, F.elu),
    (hard_sigmoid.HardSigmoid, F.hard_sigmoid),
    (leaky_relu.LeakyReLU, F.leaky_relu),
    (log_softmax.LogSoftmax, F.log_softmax),
    (softmax.Softmax, F.softmax),
    (softplus.Softplus, lambda x: F.softplus(x, 2.0)),
    (prelu.PReLU, lambda x: F.prelu(x, x.xp.asarray(W))),
    (swish.Swish, lambda x: F.swish(x, x.xp.asarray(W))),
    (rrelu.RReLU, F.rrelu),
]


@pytest.mark.parametrize(("node", "func"), NATIVE, ids=[n.__name__ for n, _ in NATIVE])
def test_runs_natively_on_chainerx(node, func, monkeypatch):
    forbid_fallback(monkeypatch, node)
    (x,) = to_chainerx(numpy.array([[-1.5, 0.25, 2.0], [0.5, -0.75, 1.0]], numpy.float32))
    x = chainer.Variable(x)
    y = func(x)
    assert y.xp is x.xp  # no creator check: on ChainerX the graph may live in C++ only
    assert y.dtype == numpy.float32
    y.grad = x.xp.ones_like(y.array)
    y.backward()
    assert x.grad.dtype == numpy.float32 and x.grad.shape == x.shape


def test_softmax_of_an_empty_axis_falls_back_and_keeps_the_shape():
    chainerx = pytest.importorskip("chainerx")
    x = chainerx.zeros((3, 0), numpy.float32)
    assert F.softmax(x, axis=1).shape == (3, 0)
    assert F.log_softmax(x, axis=1).shape == (3, 0)
