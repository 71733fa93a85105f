"""n_step_lstm and n_step_bilstm against a per-sequence NumPy LSTM; the fast gradient
against the differentiable one; dropout between layers only."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check, testing
from chainer.functions.rnn import _n_step_rnn_base

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import (
    NStepCase,
    lstm_cell,
    n_step_params,
    n_step_reference,
    time_major_inputs,
)


@testing.parameterize(
    *testing.product(
        {
            "n_layers": [1, 2],
            "bi": [False, True],
            "lengths": [(3, 2, 2), (2,), (2, 2)],
            "dtype": [numpy.float32, numpy.float64],
        }
    ),
    *testing.product(
        {"n_layers": [2], "bi": [False, True], "lengths": [(3, 1)], "dtype": [numpy.float16]}
    ),
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestNStepLSTM(NStepCase, testing.FunctionTestCase):
    functions = (F.n_step_lstm, F.n_step_bilstm)
    cell = staticmethod(lstm_cell)
    n_weights = 8
    state_names = ("hx", "cx")


def _network(rng, n_layers=2, directions=1, lengths=(3, 2, 1), dtype=numpy.float64):
    batch = len(lengths)
    hx, cx = (rng.uniform(-1, 1, (n_layers * directions, batch, 2)).astype(dtype) for _ in "hc")
    ws, bs = n_step_params(rng, n_layers, directions, 8, 3, 2, dtype)
    return hx, cx, ws, bs, time_major_inputs(rng, lengths, 3, dtype)


@pytest.mark.parametrize("bi", [False, True])
def test_fast_gradient_equals_differentiable_one(bi):
    # The recurrence computes first-order gradients on arrays, and gradients meant to be
    # differentiated again from differentiable functions: both must agree.
    rng = numpy.random.default_rng(3)
    hx, cx, ws, bs, xs = _network(rng, directions=2 if bi else 1)
    variables = [chainer.Variable(a) for a in (hx, cx, *xs)]
    params = [[chainer.Variable(w) for w in layer] for layer in ws]
    function = F.n_step_bilstm if bi else F.n_step_lstm
    hy, cy, ys = function(2, 0.0, variables[0], variables[1], params, bs, variables[2:])
    outputs = [hy, cy, *ys]
    seeds = [rng.uniform(-1, 1, y.shape) for y in outputs]
    targets = variables + [w for layer in params for w in layer]
    fast = chainer.grad(outputs, targets, seeds, enable_double_backprop=False)
    differentiable = chainer.grad(outputs, targets, seeds, enable_double_backprop=True)
    for a, b in zip(fast, differentiable):
        assert b.creator is not None or not numpy.any(b.array)
        numpy.testing.assert_allclose(a.array, b.array, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("output", ["hy", "cy", "ys"])
def test_gradient_of_each_output_alone(output):
    rng = numpy.random.default_rng(4)
    hx, cx, ws, bs, xs = _network(rng, n_layers=1, directions=2)

    def f(hx, cx, w0, x0, x1, x2):
        params = [[w0, *ws[0][1:]], ws[1]]
        hy, cy, ys = F.n_step_bilstm(1, 0.0, hx, cx, params, bs, [x0, x1, x2])
        return {"hy": (hy,), "cy": (cy,), "ys": ys}[output]

    inputs = (hx, cx, ws[0][0], *xs)
    ys = f(*inputs)
    seeds = tuple(rng.uniform(-1, 1, y.shape) for y in ys)
    gradient_check.check_backward(f, inputs, seeds)
    grad_grads = tuple(rng.uniform(-1, 1, x.shape) for x in inputs)
    gradient_check.check_double_backward(f, inputs, seeds, grad_grads)


def test_dropout_scales_the_input_of_every_layer_but_the_first(monkeypatch):
    rng = numpy.random.default_rng(5)
    hx, cx, ws, bs, xs = _network(rng, n_layers=3, directions=2)
    calls = []

    def fake_dropout(x, ratio):
        calls.append((x.shape, ratio))
        return x * 2.0

    monkeypatch.setattr(_n_step_rnn_base, "dropout", fake_dropout)
    hy, cy, ys = F.n_step_bilstm(3, 0.25, hx, cx, ws, bs, xs)
    # One call per upper layer, on all its steps' rows (3 + 2 + 1) of both directions.
    assert calls == [((6, 4), 0.25), ((6, 4), 0.25)]
    (hy_ref, cy_ref), ys_ref = n_step_reference(
        lstm_cell, 3, 2, (hx, cx), ws, bs, xs, layer_input_scale=2.0
    )
    numpy.testing.assert_allclose(hy.array, hy_ref, rtol=1e-12)
    numpy.testing.assert_allclose(cy.array, cy_ref, rtol=1e-12)
    for y, y_ref in zip(ys, ys_ref):
        numpy.testing.assert_allclose(y.array, y_ref, rtol=1e-12)


@pytest.mark.parametrize("n_layers", [1, 2])
def test_dropout_acts_only_in_training(n_layers):
    rng = numpy.random.default_rng(6)
    hx, cx, ws, bs, xs = _network(rng, n_layers=n_layers)
    (hy_ref, _), _ = n_step_reference(lstm_cell, n_layers, 1, (hx, cx), ws, bs, xs)
    with chainer.using_config("train", False):
        hy, _, _ = F.n_step_lstm(n_layers, 0.5, hx, cx, ws, bs, xs)
    numpy.testing.assert_allclose(hy.array, hy_ref, rtol=1e-12)
    with chainer.using_config("train", True):
        hy, _, _ = F.n_step_lstm(n_layers, 0.5, hx, cx, ws, bs, xs)
    # A single layer has no dropout at all; with two, the second layer's input is dropped.
    numpy.testing.assert_allclose(hy.array[:1], hy_ref[:1], rtol=1e-12)
    assert (n_layers == 1) == numpy.allclose(hy.array, hy_ref, rtol=1e-12)


def test_accepts_variables_and_a_transposed_batch():
    rng = numpy.random.default_rng(7)
    hx, cx, ws, bs, _ = _network(rng, n_layers=1)
    sequences = [rng.uniform(-1, 1, (n, 3)) for n in (3, 2, 1)]
    xs = F.transpose_sequence([chainer.Variable(s) for s in sequences])
    hy, cy, ys = F.n_step_lstm(1, 0.0, chainer.Variable(hx), cx, ws, bs, xs)
    assert isinstance(ys, tuple)
    assert [y.shape for y in ys] == [(3, 2), (2, 2), (1, 2)]
    # The last output of each sequence is its final hidden state.
    per_sequence = F.transpose_sequence(ys)
    for row, y in enumerate(per_sequence):
        numpy.testing.assert_allclose(y.array[-1], hy.array[0, row], rtol=1e-12)


def _call_with(**changes):
    rng = numpy.random.default_rng(8)
    hx, cx, ws, bs, xs = _network(rng, n_layers=2, dtype=numpy.float32)
    args = {"n_layers": 2, "dropout_ratio": 0.0, "hx": hx, "cx": cx, "ws": ws, "bs": bs}
    args["xs"] = xs
    args.update(changes)
    return F.n_step_lstm(**args)


def _shapes(*shapes):
    return [numpy.zeros(s, numpy.float32) for s in shapes]


@pytest.mark.parametrize(
    ("changes", "error", "match"),
    [
        ({"xs": _shapes((1, 3), (2, 3))}, ValueError, r"must not increase.*xs\[0\] has 1 rows"),
        ({"xs": []}, ValueError, "non-empty list of time steps"),
        ({"xs": _shapes((3, 3), (2, 4))}, ValueError, r"3 features.*xs\[1\]\.shape=\(2, 4\)"),
        ({"xs": _shapes((3,))}, ValueError, r"xs\[0\] must be 2-D"),
        ({"hx": numpy.zeros((2, 4, 2), numpy.float32)}, ValueError, r"= \(2, 3, units\).*"),
        ({"hx": numpy.zeros((1, 3, 2), numpy.float32)}, ValueError, r"hx must have shape"),
        ({"cx": numpy.zeros((2, 3, 5), numpy.float32)}, ValueError, r"cx must have the shape"),
        ({"hx": None}, TypeError, "hx must be a Variable or array, got None"),
        ({"n_layers": 3}, ValueError, r"hx must have shape .* = \(3, 3, units\)"),
        ({"n_layers": 0}, ValueError, "n_layers must be at least 1, got 0"),
        ({"n_layers": 1.0}, TypeError, "n_layers must be an int, got float"),
        ({"dropout_ratio": 1.0}, ValueError, r"dropout_ratio must be in the range \[0, 1\)"),
        ({"xs": _shapes((3, 3)) * 2 + [numpy.zeros((3, 3), numpy.int32)]}, TypeError, "dtype"),
    ],
)
def test_bad_arguments(changes, error, match):
    with pytest.raises(error, match=match):
        _call_with(**changes)


def test_bad_parameters():
    rng = numpy.random.default_rng(9)
    hx, cx, ws, bs, xs = _network(rng, n_layers=2, dtype=numpy.float32)
    with pytest.raises(ValueError, match="ws must hold n_layers \\* directions = 2 lists, got 1"):
        F.n_step_lstm(2, 0.0, hx, cx, ws[:1], bs, xs)
    with pytest.raises(ValueError, match=r"bs\[1\] must hold 8 arrays, got 7"):
        F.n_step_lstm(2, 0.0, hx, cx, ws, [bs[0], bs[1][:7]], xs)
    bad = [ws[0], [*ws[1][:2], numpy.zeros((2, 3), numpy.float32), *ws[1][3:]]]
    with pytest.raises(ValueError, match=r"ws\[1\]\[2\] must have shape \(2, 2\), got \(2, 3\)"):
        F.n_step_lstm(2, 0.0, hx, cx, bad, bs, xs)
    bad = [[*bs[0][:5], numpy.zeros(3, numpy.float32), *bs[0][6:]], bs[1]]
    with pytest.raises(ValueError, match=r"bs\[0\]\[5\] must have shape \(2,\), got \(3,\)"):
        F.n_step_lstm(2, 0.0, hx, cx, ws, bad, xs)
    # Upper bi-directional layers take both directions' outputs: 2 * units features.
    hx2 = numpy.zeros((4, 3, 2), numpy.float32)
    with pytest.raises(ValueError, match=r"ws\[2\]\[0\] must have shape \(2, 4\), got \(2, 2\)"):
        F.n_step_bilstm(2, 0.0, hx2, hx2, [ws[0], ws[0], ws[1], ws[1]], bs + bs, xs)
    with pytest.raises(TypeError, match=r"ws\[0\]\[0\] must have the dtype of xs\[0\]"):
        F.n_step_lstm(2, 0.0, hx, cx, [[w.astype(numpy.float64) for w in ws[0]], ws[1]], bs, xs)


def test_retired_and_unknown_options():
    with pytest.raises(ValueError, match="train argument is not supported anymore"):
        _call_with(train=True)
    with pytest.raises(ValueError, match="use_cudnn argument is not supported anymore"):
        _call_with(use_cudnn="always")
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        _call_with(foo=1)
