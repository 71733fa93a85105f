"""ChildSumTreeLSTM and NaryTreeLSTM: gates in blocks a, i, o, f_1 .. f_n of out_size each."""

import numpy
import pytest

import chainer.functions as F
import chainer.links as L
from chainer import testing

from .._link_checks import check_copies, check_npz_round_trip
from ._rnn_references import tree_lstm_cell

IN, OUT, BATCH = 3, 2, 4


def _random(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def _fill(link, names, values):
    params = dict(link.namedparams())
    for name, value in zip(names, values):
        params["/" + name].array[...] = value
    return link


def _child_sum_reference(cs, hs, x, W_x, b_x, W_h_aio, W_h_f):
    x_gates = x @ W_x.T + b_x
    aio = x_gates[:, : 3 * OUT] + sum(hs) @ W_h_aio.T
    forgets = [x_gates[:, 3 * OUT :] + h @ W_h_f.T for h in hs]
    return tree_lstm_cell(cs, numpy.concatenate([aio, *forgets], axis=1))


@testing.parameterize({"n_children": 1}, {"n_children": 3})
@testing.inject_backend_tests(None, [{}])
class TestChildSumTreeLSTM(testing.LinkTestCase):
    param_names = ("W_x/W", "W_x/b", "W_h_aio/W", "W_h_f/W")
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    def generate_params(self):
        shapes = ((4 * OUT, IN), (4 * OUT,), (3 * OUT, OUT), (OUT, OUT))
        self.params = tuple(_random(*s) for s in shapes)
        return self.params

    def create_link(self, initializers):
        return _fill(L.ChildSumTreeLSTM(IN, OUT), self.param_names, initializers)

    def generate_inputs(self):
        return tuple(_random(BATCH, OUT) for _ in range(2 * self.n_children)) + (
            _random(BATCH, IN),
        )

    def forward_expected(self, link, inputs):
        inputs = [v.astype(numpy.float64) for v in inputs]
        cs, hs = inputs[: self.n_children], inputs[self.n_children : -1]
        c, h = _child_sum_reference(cs, hs, inputs[-1], *self.params)
        return c.astype(numpy.float32), h.astype(numpy.float32)


@testing.parameterize({"n_ary": 1}, {"n_ary": 3})
@testing.inject_backend_tests(None, [{}])
class TestNaryTreeLSTM(testing.LinkTestCase):
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    @property
    def param_names(self):
        return ("W_x/W", "W_x/b") + tuple(f"W_h{k}/W" for k in range(1, self.n_ary + 1))

    def generate_params(self):
        width = (3 + self.n_ary) * OUT
        shapes = [(width, IN), (width,)] + [(width, OUT)] * self.n_ary
        self.params = tuple(_random(*s) for s in shapes)
        return self.params

    def create_link(self, initializers):
        return _fill(L.NaryTreeLSTM(IN, OUT, self.n_ary), self.param_names, initializers)

    def generate_inputs(self):
        return tuple(_random(BATCH, OUT) for _ in range(2 * self.n_ary)) + (_random(BATCH, IN),)

    def forward_expected(self, link, inputs):
        inputs = [v.astype(numpy.float64) for v in inputs]
        cs, hs, x = inputs[: self.n_ary], inputs[self.n_ary : -1], inputs[-1]
        W_x, b_x, *W_hs = self.params
        gates = x @ W_x.T + b_x + sum(h @ W_h.T for h, W_h in zip(hs, W_hs))
        c, h = tree_lstm_cell(cs, gates)
        return c.astype(numpy.float32), h.astype(numpy.float32)


def test_child_sum_link_feeds_the_function_block_ordered_gates():
    link = L.ChildSumTreeLSTM(IN, OUT)
    c1, c2, h1, h2 = (_random(BATCH, OUT) for _ in range(4))
    x = _random(BATCH, IN)
    x_gates = F.linear(x, link.W_x.W, link.W_x.b).array
    aio = x_gates[:, : 3 * OUT] + (h1 + h2) @ link.W_h_aio.W.array.T
    f1 = x_gates[:, 3 * OUT :] + h1 @ link.W_h_f.W.array.T
    f2 = x_gates[:, 3 * OUT :] + h2 @ link.W_h_f.W.array.T
    expected = F.tree_lstm(c1, c2, numpy.concatenate([aio, f1, f2], axis=1))
    for got, want in zip(link(c1, c2, h1, h2, x), expected):
        numpy.testing.assert_allclose(got.array, want.array, rtol=1e-5, atol=1e-6)


def test_missing_input_is_zeros_and_missing_children_contribute_nothing():
    link = L.NaryTreeLSTM(IN, OUT, n_ary=2)
    c1, h1 = _random(BATCH, OUT), _random(BATCH, OUT)
    c, h = link(c1, None, h1, None, None)
    gates = link.W_x.b.array + h1 @ link.W_h1.W.array.T
    c_ref, h_ref = tree_lstm_cell([c1, numpy.zeros((BATCH, OUT))], gates)
    numpy.testing.assert_allclose(c.array, c_ref, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(h.array, h_ref, rtol=1e-5, atol=1e-6)
    child_sum = L.ChildSumTreeLSTM(IN, OUT)
    assert child_sum(c1, h1, None)[0].shape == (BATCH, OUT)


def test_all_inputs_none_is_a_value_error():
    with pytest.raises(ValueError, match=r"NaryTreeLSTM: all inputs \(cs, hs, x\) are None"):
        L.NaryTreeLSTM(IN, OUT)(None, None, None, None, None)
    with pytest.raises(ValueError, match=r"ChildSumTreeLSTM: all inputs \(cs, hs, x\) are None"):
        L.ChildSumTreeLSTM(IN, OUT)(None, None, None)


def test_wrong_argument_counts():
    c = _random(BATCH, OUT)
    with pytest.raises(ValueError, match=r"takes 5 arguments \(c_1..c_n, h_1..h_n, x\), got 3"):
        L.NaryTreeLSTM(IN, OUT)(c, c, None)
    with pytest.raises(ValueError, match=r"2 n \+ 1 arguments, got 2"):
        L.ChildSumTreeLSTM(IN, OUT)(c, c)
    with pytest.raises(ValueError, match="NaryTreeLSTM needs n_ary >= 1 children, got n_ary=0"):
        L.NaryTreeLSTM(IN, OUT, n_ary=0)


def test_parameter_shapes_serialization_and_copies():
    link = L.NaryTreeLSTM(IN, OUT, n_ary=3)
    shapes = {name: p.shape for name, p in link.namedparams()}
    assert shapes == {
        "/W_x/W": (6 * OUT, IN),
        "/W_x/b": (6 * OUT,),
        "/W_h1/W": (6 * OUT, OUT),
        "/W_h2/W": (6 * OUT, OUT),
        "/W_h3/W": (6 * OUT, OUT),
    }
    inputs = tuple(_random(BATCH, OUT) for _ in range(2)) + (_random(BATCH, IN),)
    check_npz_round_trip(lambda: L.ChildSumTreeLSTM(IN, OUT), inputs)
    check_copies(link)


def test_child_sum_leaf_takes_x_alone():
    # A node without children (v7 accepts link(x)): c = tanh(a) sigmoid(i), h = sigmoid(o) tanh(c).
    link = L.ChildSumTreeLSTM(IN, OUT)
    x = _random(BATCH, IN)
    c, h = link(x)
    gates = (x @ link.W_x.W.array.T + link.W_x.b.array).astype(numpy.float64)
    a, i, o = (gates[:, k * OUT : (k + 1) * OUT] for k in range(3))
    c_ref = numpy.tanh(a) / (1 + numpy.exp(-i))
    h_ref = numpy.tanh(c_ref) / (1 + numpy.exp(-o))
    numpy.testing.assert_allclose(c.array, c_ref, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(h.array, h_ref, rtol=1e-5, atol=1e-6)
    c.grad = numpy.ones_like(c.array)
    c.backward()
    assert link.W_x.W.grad.shape == (4 * OUT, IN)


def test_child_sum_missing_children_count_as_zeros():
    link = L.ChildSumTreeLSTM(IN, OUT)
    c1, h1, x = _random(BATCH, OUT), _random(BATCH, OUT), _random(BATCH, IN)
    zeros = numpy.zeros((BATCH, OUT), numpy.float32)
    for got, want in zip(link(c1, None, None, h1, x), link(c1, zeros, zeros, h1, x)):
        numpy.testing.assert_array_equal(got.array, want.array)
