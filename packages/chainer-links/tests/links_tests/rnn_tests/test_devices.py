"""The rnn links on ChainerX and CUDA devices give the CPU results; their states move along."""

import numpy
import pytest

import chainer
import chainer.links as L
from chainer.testing import attr


def _stateful(link, x):
    link.reset_state()
    link(x)
    return link(x * 2)


def _shrinking(link, x):
    link.reset_state()
    link(x)
    return link(x[:2])


def _child_sum(link, x):
    zeros = link.xp.zeros((len(x), 5), dtype=numpy.float32)
    return link(zeros, zeros + 1, zeros, zeros - 1, x)[1]


# name: (factory, call on an input x of shape (3, 4), names of the state attributes)
CASES = {
    "LSTM": (lambda: L.LSTM(4, 5), _shrinking, ("c", "h")),
    "GRU": (lambda: L.GRU(4, 5), _stateful, ("h",)),
    "StatefulPeepholeLSTM": (lambda: L.StatefulPeepholeLSTM(4, 5), _stateful, ("c", "h")),
    "StatefulMGU": (lambda: L.StatefulMGU(4, 5), _stateful, ("h",)),
    "StatefulZoneoutLSTM": (lambda: L.StatefulZoneoutLSTM(4, 5), _stateful, ("c", "h")),
    "NStepBiLSTM": (
        lambda: L.NStepBiLSTM(2, 4, 5, 0.0),
        lambda link, x: link(None, None, [x, x[:1], x[:2]])[2][2],
        (),
    ),
    "NStepGRU": (lambda: L.NStepGRU(1, 4, 5, 0.0), lambda link, x: link(None, [x])[0], ()),
    "ChildSumTreeLSTM": (lambda: L.ChildSumTreeLSTM(4, 5), _child_sum, ()),
    "NaryTreeLSTM": (lambda: L.NaryTreeLSTM(4, 5), lambda link, x: link(*[None] * 4, x)[0], ()),
}


def _check_on_device(name, device, to_device_array, to_host, array_type):
    make, call, states = CASES[name]
    x = numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float32)
    link = make()
    with chainer.using_config("train", False):
        expected = call(link, x).array
        link.to_device(device)
        for state in states:  # the state from the CPU run moved with the link
            assert isinstance(getattr(link, state).array, array_type), state
        got = call(link, to_device_array(x))
    assert isinstance(got.array, array_type)
    numpy.testing.assert_allclose(to_host(got.array), expected, rtol=1e-4, atol=1e-5)


@attr.chainerx
@pytest.mark.parametrize("name", sorted(CASES))
def test_chainerx_link_gives_the_cpu_results(name):
    import chainerx

    _check_on_device(name, "native:0", chainerx.array, chainerx.to_numpy, chainerx.ndarray)


@attr.gpu
@pytest.mark.parametrize("name", sorted(CASES))
def test_gpu_link_gives_the_cpu_results(name):
    cupy = pytest.importorskip("cupy")
    _check_on_device(name, "@cupy:0", cupy.asarray, cupy.asnumpy, cupy.ndarray)
