"""LSTM and StatelessLSTM: one step is F.lstm(c, upward(x) + lateral(h)) with interleaved gates."""

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import initializers, testing

from .._link_checks import check_copies, check_cpu_transfer, check_npz_round_trip
from ._rnn_references import lstm_step
from ._state_checks import assert_states_are_visited

IN, OUT = 3, 4


def _random(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


class _LSTMParams:
    param_names = ("upward/W", "upward/b", "lateral/W")
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    def generate_params(self):
        self.params = (_random(4 * OUT, IN), _random(4 * OUT), _random(4 * OUT, OUT))
        return self.params

    def fill(self, link, params):
        for array, value in zip((link.upward.W, link.upward.b, link.lateral.W), params):
            array.array[...] = value
        return link


@testing.inject_backend_tests(None, [{}])
class TestLSTMTwoSteps(_LSTMParams, testing.LinkTestCase):
    """Two steps, the second on a smaller batch: the rows beyond it keep their state."""

    def create_link(self, initializers):
        return self.fill(L.LSTM(IN, OUT), initializers)

    def generate_inputs(self):
        return _random(3, IN), _random(2, IN)

    def forward(self, link, inputs, device):
        x1, x2 = inputs
        link.reset_state()
        y1 = link(x1)
        y2 = link(x2)
        return y1, y2, link.c, link.h

    def forward_expected(self, link, inputs):
        x1, x2 = (x.astype(numpy.float64) for x in inputs)
        W_up, b_up, W_lat = self.params
        c1, h1 = lstm_step(numpy.zeros((3, OUT)), None, x1, W_up, b_up, W_lat)
        c2, h2 = lstm_step(c1[:2], h1[:2], x2, W_up, b_up, W_lat)
        c = numpy.concatenate([c2, c1[2:]])
        h = numpy.concatenate([h2, h1[2:]])
        return tuple(v.astype(numpy.float32) for v in (h1, h2, c, h))


@testing.inject_backend_tests(None, [{}])
class TestStatelessLSTM(_LSTMParams, testing.LinkTestCase):
    def create_link(self, initializers):
        return self.fill(L.StatelessLSTM(IN, OUT), initializers)

    def generate_inputs(self):
        return _random(2, OUT), _random(2, OUT), _random(2, IN)

    def forward_expected(self, link, inputs):
        c, h, x = (v.astype(numpy.float64) for v in inputs)
        c_new, h_new = lstm_step(c, h, x, *self.params)
        return c_new.astype(numpy.float32), h_new.astype(numpy.float32)


def test_stateless_lstm_starts_from_zeros():
    link = L.StatelessLSTM(IN, OUT)
    x = _random(2, IN)
    c, h = link(None, None, x)
    params = (link.upward.W.array, link.upward.b.array, link.lateral.W.array)
    c_ref, h_ref = lstm_step(numpy.zeros((2, OUT)), None, x, *params)
    numpy.testing.assert_allclose(c.array, c_ref, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(h.array, h_ref, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("cls", [L.LSTM, L.StatelessLSTM])
def test_default_biases_are_zero_except_the_forget_gate(cls):
    link = cls(IN, OUT)
    a, i, f, o = link.upward.b.array.reshape(OUT, 4).T
    for gate in (a, i, o):
        numpy.testing.assert_array_equal(gate, 0)
    numpy.testing.assert_array_equal(f, 1)
    assert link.lateral.b is None


def test_initializers_apply_per_gate_block_and_per_gate_bias():
    block_up = numpy.arange(OUT * IN, dtype=numpy.float32).reshape(OUT, IN)
    block_lat = -numpy.arange(OUT * OUT, dtype=numpy.float32).reshape(OUT, OUT)
    link = L.LSTM(
        IN,
        OUT,
        upward_init=block_up,
        lateral_init=block_lat,
        bias_init=initializers.Constant(0.5),
        forget_bias_init=2.0,
    )
    numpy.testing.assert_array_equal(link.upward.W.array, numpy.tile(block_up, (4, 1)))
    numpy.testing.assert_array_equal(link.lateral.W.array, numpy.tile(block_lat, (4, 1)))
    expected_bias = numpy.tile([0.5, 0.5, 2.0, 0.5], OUT)
    numpy.testing.assert_array_equal(link.upward.b.array, expected_bias)


def test_lazy_input_size_is_read_from_the_first_input():
    link = L.LSTM(OUT, forget_bias_init=3.0)
    assert link.upward.W.array is None
    y = link(_random(2, 5))
    assert y.shape == (2, OUT)
    assert link.upward.W.shape == (4 * OUT, 5)
    numpy.testing.assert_array_equal(link.upward.b.array.reshape(OUT, 4)[:, 2], 3.0)
    assert numpy.abs(link.lateral.W.array).sum() > 0  # re-initialized, not the zeros


def test_missing_out_size_is_a_value_error():
    with pytest.raises(ValueError, match=r"LSTM needs out_size: give LSTM\(out_size\)"):
        L.LSTM(None)


def test_state_persists_and_reset_state_forgets_it():
    link = L.LSTM(IN, OUT)
    x = _random(2, IN)
    first = link(x).array
    second = link(x).array
    assert not numpy.allclose(first, second)
    link.reset_state()
    assert link.c is None and link.h is None
    numpy.testing.assert_allclose(link(x).array, first)


def test_set_state_continues_from_the_given_state():
    link = L.LSTM(IN, OUT)
    c, h, x = _random(2, OUT), _random(2, OUT), _random(2, IN)
    link.set_state(chainer.Variable(c), chainer.Variable(h))
    params = (link.upward.W.array, link.upward.b.array, link.lateral.W.array)
    _, h_ref = lstm_step(c, h, x, *params)
    numpy.testing.assert_allclose(link(x).array, h_ref, rtol=1e-5, atol=1e-6)


def test_set_state_rejects_arrays():
    link = L.LSTM(IN, OUT)
    with pytest.raises(TypeError, match=r"LSTM.set_state: c must be a chainer.Variable, got nda"):
        link.set_state(numpy.zeros((2, OUT), numpy.float32), chainer.Variable(_random(2, OUT)))


def test_a_larger_batch_than_the_state_is_a_type_error():
    link = L.LSTM(IN, OUT)
    link(_random(2, IN))
    with pytest.raises(TypeError, match=r"x has 3 rows, h has 2"):
        link(_random(3, IN))


def test_an_empty_batch_keeps_the_state():
    link = L.LSTM(IN, OUT)
    link(_random(2, IN))
    h = link.h.array.copy()
    y = link(_random(0, IN))
    assert y.shape == (0, OUT)
    numpy.testing.assert_array_equal(link.h.array, h)


def test_gradients_flow_through_time_to_the_parameters():
    link = L.LSTM(IN, OUT)
    loss = chainer.functions.sum(link(_random(2, IN)) + link(_random(2, IN)))
    link.cleargrads()
    loss.backward()
    for name, param in link.namedparams():
        assert param.grad is not None and numpy.abs(param.grad).sum() > 0, name


def test_npz_round_trip_copies_and_transfer():
    x = _random(2, IN)

    def run(link, x):
        link.reset_state()
        return link(x)

    check_npz_round_trip(lambda: L.LSTM(None, OUT), (x,), call=run)
    link = L.LSTM(IN, OUT)
    link(x)
    check_copies(link)
    check_cpu_transfer(link)
    assert_states_are_visited(link, ("c", "h"))
