"""The LSTM cells and n_step_lstm's recurrence compute ChainerX inputs natively.

Values against the NumPy path (the ChainerX configurations of the other rnn tests check
gradients of both orders on ChainerX arrays).
"""

import numpy
import pytest

import chainer.functions as F
from chainer.functions.rnn._lstm_recurrence import LSTMRecurrence
from chainer.functions.rnn.lstm import LSTM
from chainer.functions.rnn.slstm import SLSTM
from chainer.functions.rnn.tree_lstm import TreeLSTM

from ..chainerx_native import forbid_fallback, to_chainerx, to_numpy
from .conftest import FLOAT_DTYPES


def _uniform(shape, dtype):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


def _assert_same(chainerx_outputs, numpy_outputs, dtype):
    tol = 5e-3 if dtype == numpy.float16 else 1e-6
    assert len(chainerx_outputs) == len(numpy_outputs)
    for y_cx, y in zip(chainerx_outputs, numpy_outputs):
        assert y_cx.dtype == y.dtype == dtype
        numpy.testing.assert_allclose(to_numpy(y_cx), y.array, rtol=tol, atol=tol)


def _cases(dtype):
    lstm_in = (_uniform((3, 2), dtype), _uniform((2, 8), dtype))  # fewer input rows
    slstm_in = tuple(_uniform(s, dtype) for s in ((3, 2), (3, 2), (3, 8), (3, 8)))
    tree_in = tuple(_uniform(s, dtype) for s in ((3, 2), (3, 2), (3, 10)))
    return [(LSTM, F.lstm, lstm_in), (SLSTM, F.slstm, slstm_in), (TreeLSTM, F.tree_lstm, tree_in)]


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("case", [0, 1, 2])
def test_cells_match_the_numpy_path(monkeypatch, dtype, case):
    node, function, inputs = _cases(dtype)[case]
    expected = function(*inputs)
    forbid_fallback(monkeypatch, node)
    _assert_same(function(*to_chainerx(*inputs)), expected, dtype)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("bi", [False, True])
def test_n_step_lstm_matches_the_numpy_path(monkeypatch, dtype, bi):
    directions, n_layers, units = 1 + bi, 2, 3
    lengths = (3, 2, 2, 1)
    xs = [_uniform((sum(n > t for n in lengths), 4), dtype) for t in range(3)]
    hx, cx = (_uniform((n_layers * directions, 4, units), dtype) for _ in "hc")
    in_sizes = [4 if k < directions else directions * units for k in range(n_layers * directions)]
    ws = [
        [_uniform((units, in_size if j < 4 else units), dtype) for j in range(8)]
        for in_size in in_sizes
    ]
    bs = [[_uniform((units,), dtype) for _ in range(8)] for _ in range(n_layers * directions)]
    function = F.n_step_bilstm if bi else F.n_step_lstm
    hy, cy, ys = function(n_layers, 0.0, hx, cx, ws, bs, xs)
    forbid_fallback(monkeypatch, LSTMRecurrence)
    hy_cx, cy_cx, ys_cx = function(
        n_layers,
        0.0,
        *to_chainerx(hx, cx),
        [list(to_chainerx(*w)) for w in ws],
        [list(to_chainerx(*b)) for b in bs],
        list(to_chainerx(*xs)),
    )
    _assert_same((hy_cx, cy_cx, *ys_cx), (hy, cy, *ys), dtype)
