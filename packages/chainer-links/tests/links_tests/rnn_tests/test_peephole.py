"""StatefulPeepholeLSTM: an LSTM whose input/forget gates see c and output gate the new c."""

import numpy

import chainer.links as L
from chainer import testing

from .._link_checks import check_copies, check_npz_round_trip
from ._rnn_references import interleaved_gates, sigmoid
from ._state_checks import assert_states_are_visited

IN, OUT = 3, 2
NAMES = ("upward/W", "upward/b", "lateral/W", "peep_i/W", "peep_f/W", "peep_o/W")


def _peephole_step(c, h, x, p):
    z = x @ p["upward/W"].T + p["upward/b"]
    if h is not None:
        z = z + h @ p["lateral/W"].T
    a, i, f, o = interleaved_gates(z, 4)
    i = sigmoid(i + c @ p["peep_i/W"].T)
    f = sigmoid(f + c @ p["peep_f/W"].T)
    c = numpy.tanh(a) * i + f * c
    o = sigmoid(o + c @ p["peep_o/W"].T)
    return c, o * numpy.tanh(c)


@testing.inject_backend_tests(None, [{}])
class TestStatefulPeepholeLSTM(testing.LinkTestCase):
    param_names = NAMES
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    def generate_params(self):
        shapes = [(4 * OUT, IN), (4 * OUT,), (4 * OUT, OUT)] + [(OUT, OUT)] * 3
        self.params = dict(
            zip(NAMES, (numpy.random.uniform(-1, 1, s).astype(numpy.float32) for s in shapes))
        )
        return tuple(self.params.values())

    def create_link(self, initializers):
        link = L.StatefulPeepholeLSTM(IN, OUT)
        params = dict(link.namedparams())
        for name, value in zip(NAMES, initializers):
            params["/" + name].array[...] = value
        return link

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, (2, IN)).astype(numpy.float32) for _ in "ab")

    def forward(self, link, inputs, device):
        link.reset_state()
        return link(inputs[0]), link(inputs[1]), link.c

    def forward_expected(self, link, inputs):
        x1, x2 = (x.astype(numpy.float64) for x in inputs)
        c1, h1 = _peephole_step(numpy.zeros((2, OUT)), None, x1, self.params)
        c2, h2 = _peephole_step(c1, h1, x2, self.params)
        return tuple(v.astype(numpy.float32) for v in (h1, h2, c2))


def test_reset_state_state_transfer_and_serialization():
    link = L.StatefulPeepholeLSTM(IN, OUT)
    x = numpy.random.uniform(-1, 1, (2, IN)).astype(numpy.float32)
    first = link(x).array
    assert_states_are_visited(link, ("c", "h"))
    link.reset_state()
    assert link.c is None and link.h is None
    numpy.testing.assert_array_equal(link(x).array, first)

    def run(link, x):
        link.reset_state()
        return link(x)

    check_npz_round_trip(lambda: L.StatefulPeepholeLSTM(IN, OUT), (x,), call=run)
    check_copies(link)
