"""StatefulZoneoutLSTM: an LSTM step whose new state keeps old elements with some ratio."""

import numpy
import pytest

import chainer
import chainer.links as L

from .._link_checks import check_npz_round_trip
from ._rnn_references import lstm_step
from ._state_checks import assert_states_are_visited

IN, OUT = 3, 4


def _random(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def _params(link):
    return link.upward.W.array, link.upward.b.array, link.lateral.W.array


def test_test_mode_is_a_plain_lstm_step():
    link = L.StatefulZoneoutLSTM(IN, OUT)
    x1, x2 = _random(2, IN), _random(2, IN)
    c1, h1 = lstm_step(numpy.zeros((2, OUT)), None, x1, *_params(link))
    c2, h2 = lstm_step(c1, h1, x2, *_params(link))
    with chainer.using_config("train", False):
        numpy.testing.assert_allclose(link(x1).array, h1, rtol=1e-5, atol=1e-6)
        numpy.testing.assert_allclose(link(x2).array, h2, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(link.c.array, c2, rtol=1e-5, atol=1e-6)


def test_training_keeps_each_element_of_the_old_state_or_takes_the_new_one():
    link = L.StatefulZoneoutLSTM(IN, OUT, c_ratio=0.5, h_ratio=0.5)
    c0, h0, x = _random(50, OUT), _random(50, OUT), _random(50, IN)
    link.set_state(chainer.Variable(c0), chainer.Variable(h0))
    c_new, h_new = lstm_step(c0, h0, x, *_params(link))
    h = link(x).array
    kept_h = numpy.isclose(h, h0, atol=1e-6)
    assert numpy.all(kept_h | numpy.isclose(h, h_new, atol=1e-6))
    assert 0.3 < kept_h.mean() < 0.7
    kept_c = numpy.isclose(link.c.array, c0, atol=1e-6)
    assert numpy.all(kept_c | numpy.isclose(link.c.array, c_new, atol=1e-6))
    assert 0.3 < kept_c.mean() < 0.7


def test_ratio_zero_in_training_is_a_plain_step_with_gradients():
    link = L.StatefulZoneoutLSTM(IN, OUT, c_ratio=0.0, h_ratio=0.0)
    link.cleargrads()  # gradients are NaN until cleared (v7)
    x = _random(2, IN)
    _, h_ref = lstm_step(numpy.zeros((2, OUT)), None, x, *_params(link))
    y = link(x)
    numpy.testing.assert_allclose(y.array, h_ref, rtol=1e-5, atol=1e-6)
    chainer.functions.sum(y).backward()
    assert numpy.abs(link.upward.W.grad).sum() > 0


def test_state_handling_and_serialization():
    link = L.StatefulZoneoutLSTM(IN, OUT)
    link(_random(2, IN))
    assert_states_are_visited(link, ("c", "h"))
    link.reset_state()
    assert link.c is None and link.h is None
    with pytest.raises(TypeError, match=r"StatefulZoneoutLSTM.set_state: c must be a chainer.V"):
        link.set_state(numpy.zeros((2, OUT)), None)

    def run(link, x):
        link.reset_state()
        return link(x)

    check_npz_round_trip(lambda: L.StatefulZoneoutLSTM(IN, OUT), (_random(2, IN),), call=run)


def test_the_retired_train_argument_is_rejected():
    with pytest.raises(ValueError, match="train argument is not supported anymore"):
        L.StatefulZoneoutLSTM(IN, OUT, train=True)
