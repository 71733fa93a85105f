"""MGU links: f = sigmoid(W_f [h, x]), h' = f tanh(W_h [f h, x]) + (1 - f) h."""

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import testing

from .._link_checks import check_npz_round_trip
from ._rnn_references import sigmoid
from ._state_checks import assert_states_are_visited

IN, OUT = 3, 2
NAMES = ("W_f/W", "W_f/b", "W_h/W", "W_h/b")


def _random(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def _mgu_step(h, x, p):
    f = sigmoid(numpy.concatenate([h, x], axis=1) @ p["W_f/W"].T + p["W_f/b"])
    h_bar = numpy.tanh(numpy.concatenate([f * h, x], axis=1) @ p["W_h/W"].T + p["W_h/b"])
    return f * h_bar + (1 - f) * h


class _MGUParams:
    param_names = NAMES
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    def generate_params(self):
        shapes = ((OUT, IN + OUT), (OUT,)) * 2
        self.params = dict(zip(NAMES, (_random(*s) for s in shapes)))
        return tuple(self.params.values())

    def fill(self, link, initializers):
        params = dict(link.namedparams())
        for name, value in zip(NAMES, initializers):
            params["/" + name].array[...] = value
        return link


@testing.inject_backend_tests(None, [{}])
class TestStatelessMGU(_MGUParams, testing.LinkTestCase):
    def create_link(self, initializers):
        return self.fill(L.StatelessMGU(IN, OUT), initializers)

    def generate_inputs(self):
        return _random(4, OUT), _random(4, IN)

    def forward_expected(self, link, inputs):
        h, x = (v.astype(numpy.float64) for v in inputs)
        return (_mgu_step(h, x, self.params).astype(numpy.float32),)


@testing.inject_backend_tests(None, [{}])
class TestStatefulMGU(_MGUParams, testing.LinkTestCase):
    def create_link(self, initializers):
        return self.fill(L.StatefulMGU(IN, OUT), initializers)

    def generate_inputs(self):
        return _random(4, IN), _random(4, IN)

    def forward(self, link, inputs, device):
        link.reset_state()
        return link(inputs[0]), link(inputs[1])

    def forward_expected(self, link, inputs):
        x1, x2 = (v.astype(numpy.float64) for v in inputs)
        h1 = _mgu_step(numpy.zeros((4, OUT)), x1, self.params)
        h2 = _mgu_step(h1, x2, self.params)
        return h1.astype(numpy.float32), h2.astype(numpy.float32)


def test_state_handling_and_serialization():
    link = L.StatefulMGU(IN, OUT)
    h = _random(2, OUT)
    link.set_state(chainer.Variable(h))
    x = _random(2, IN)
    params = {name: dict(link.namedparams())["/" + name].array for name in NAMES}
    expected = _mgu_step(h, x, params)
    numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-5, atol=1e-6)
    assert_states_are_visited(link, ("h",))
    link.reset_state()
    assert link.h is None
    with pytest.raises(TypeError, match=r"StatefulMGU.set_state: h must be a chainer.Variable"):
        link.set_state(h)

    def run(link, x):
        link.reset_state()
        return link(x)

    check_npz_round_trip(lambda: L.StatefulMGU(IN, OUT), (x,), call=run)
