"""GRU links: StatelessGRU, StatefulGRU and its alias GRU (h' = z h_bar + (1 - z) h)."""

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import testing

from .._link_checks import check_copies, check_npz_round_trip
from ._rnn_references import gru_step, sigmoid
from ._state_checks import assert_states_are_visited

IN, OUT = 3, 2
LINEARS = ("W_r", "U_r", "W_z", "U_z", "W", "U")
NAMES = tuple(f"{n}/{p}" for n in LINEARS for p in ("W", "b"))


def _random(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


class _GRUParams:
    param_names = NAMES
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    def generate_params(self):
        self.params = {}
        for name in LINEARS:
            fan_in = IN if name.startswith("W") else OUT
            self.params[name] = (_random(OUT, fan_in), _random(OUT))
        return tuple(array for pair in self.params.values() for array in pair)

    def fill(self, link, initializers):
        params = dict(link.namedparams())
        for name, value in zip(NAMES, initializers):
            params["/" + name].array[...] = value
        return link


@testing.inject_backend_tests(None, [{}])
class TestStatelessGRU(_GRUParams, testing.LinkTestCase):
    def create_link(self, initializers):
        return self.fill(L.StatelessGRU(IN, OUT), initializers)

    def generate_inputs(self):
        return _random(4, OUT), _random(4, IN)

    def forward_expected(self, link, inputs):
        h, x = (v.astype(numpy.float64) for v in inputs)
        return (gru_step(h, x, self.params).astype(numpy.float32),)


@testing.parameterize({"cls": "StatefulGRU"}, {"cls": "GRU"})
@testing.inject_backend_tests(None, [{}])
class TestStatefulGRU(_GRUParams, testing.LinkTestCase):
    """The first step starts without a state (z * tanh(W x)); the second uses it."""

    def create_link(self, initializers):
        return self.fill(getattr(L, self.cls)(IN, OUT), initializers)

    def generate_inputs(self):
        return _random(4, IN), _random(4, IN)

    def forward(self, link, inputs, device):
        link.reset_state()
        return link(inputs[0]), link(inputs[1])

    def forward_expected(self, link, inputs):
        x1, x2 = (v.astype(numpy.float64) for v in inputs)
        W_z, b_z = self.params["W_z"]
        W, b = self.params["W"]
        h1 = sigmoid(x1 @ W_z.T + b_z) * numpy.tanh(x1 @ W.T + b)
        h2 = gru_step(h1, x2, self.params)
        return h1.astype(numpy.float32), h2.astype(numpy.float32)


def test_stateful_gru_biases_default_to_zero_and_take_an_initializer():
    numpy.testing.assert_array_equal(L.StatefulGRU(IN, OUT).U_r.b.array, 0)
    link = L.StatefulGRU(IN, OUT, init=0.5, inner_init=-0.5, bias_init=2.0)
    numpy.testing.assert_array_equal(link.W_z.W.array, 0.5)
    numpy.testing.assert_array_equal(link.U.W.array, -0.5)
    numpy.testing.assert_array_equal(link.W.b.array, 2.0)


def test_set_state_and_reset_state():
    link = L.StatefulGRU(IN, OUT)
    h, x = _random(2, OUT), _random(2, IN)
    link.set_state(chainer.Variable(h))
    params = {name: (getattr(link, name).W.array, getattr(link, name).b.array) for name in LINEARS}
    numpy.testing.assert_allclose(link(x).array, gru_step(h, x, params), rtol=1e-5, atol=1e-6)
    assert_states_are_visited(link, ("h",))
    link.reset_state()
    assert link.h is None
    with pytest.raises(TypeError, match=r"StatefulGRU.set_state: h must be a chainer.Variable"):
        link.set_state(h)


@pytest.mark.parametrize(
    ("n_args", "message"),
    [(0, r"exactly one argument x, but 0 were given\.$"), (2, r"use chainer.links.StatelessGRU")],
)
def test_gru_takes_exactly_one_argument(n_args, message):
    with pytest.raises(ValueError, match=message):
        L.GRU(IN, OUT)(*[_random(2, IN)] * n_args)


def test_lazy_input_size():
    link = L.GRU(None, OUT)
    assert link(_random(2, 5)).shape == (2, OUT)
    assert link.W_z.W.shape == (OUT, 5) and link.W.W.shape == (OUT, 5)
    assert link.W_r.W.array is None  # the reset gate is first needed on the second step
    link(_random(2, 5))
    assert link.W_r.W.shape == (OUT, 5) and link.U_r.W.shape == (OUT, OUT)


def test_npz_round_trip_and_copies():
    x = _random(2, IN)
    check_npz_round_trip(lambda: L.StatelessGRU(IN, OUT), (_random(2, OUT), x))

    def run(link, x):
        link.reset_state()
        return link(x)

    check_npz_round_trip(lambda: L.GRU(IN, OUT), (x,), call=run)
    check_copies(L.GRU(IN, OUT))
