"""lstm, slstm and tree_lstm against NumPy references written from Chainer's definitions."""

import numpy
import pytest

import chainerx
import chainerx.testing
from chainerx.testing._gradient import check_backward

FLOAT_DTYPES = ["float16", "float32", "float64"]
_TOL = {"float16": 5e-3, "float32": 1e-5, "float64": 1e-12}


def _sigmoid(v):
    return 1 / (1 + numpy.exp(-v))


def _interleaved(x, n_gates):
    """Gate g of lstm-style x: channels g, g + n_gates, g + 2 n_gates, ..."""
    return [x[:, g::n_gates] for g in range(n_gates)]


def _blocked(x, n_gates):
    """Gate g of tree_lstm-style x: the g-th block of channels."""
    units = x.shape[1] // n_gates
    return [x[:, g * units : (g + 1) * units] for g in range(n_gates)]


def _lstm_ref(c_prev, x):
    a, i, f, o = _interleaved(x, 4)
    batch = len(x)
    c = numpy.tanh(a) * _sigmoid(i) + _sigmoid(f) * c_prev[:batch]
    h = _sigmoid(o) * numpy.tanh(c)
    return numpy.concatenate([c, c_prev[batch:]]), h


def _slstm_ref(c1, c2, x1, x2):
    a1, i1, f1, o1 = _interleaved(x1, 4)
    a2, i2, f2, o2 = _interleaved(x2, 4)
    c = numpy.tanh(a1) * _sigmoid(i1) + numpy.tanh(a2) * _sigmoid(i2)
    c += _sigmoid(f1) * c1 + _sigmoid(f2) * c2
    return c, _sigmoid(o1 + o2) * numpy.tanh(c)


def _tree_lstm_ref(*inputs):
    cs, x = inputs[:-1], inputs[-1]
    a, i, o, *fs = _blocked(x, 3 + len(cs))
    c = numpy.tanh(a) * _sigmoid(i) + sum(_sigmoid(f) * c for f, c in zip(fs, cs, strict=True))
    return c, _sigmoid(o) * numpy.tanh(c)


def _check(outputs, expected, dtype):
    assert isinstance(outputs, tuple) and len(outputs) == 2
    for got, want in zip(outputs, expected, strict=True):
        assert got.dtype == numpy.dtype(dtype)
        assert got.shape == want.shape
        chainerx.testing.assert_allclose(got, want, rtol=_TOL[dtype], atol=_TOL[dtype])


def _with_gates(shape, n_gates):
    return (shape[0], n_gates * shape[1]) + tuple(shape[2:])


def test_lstm_gate_order_by_hand():
    # One unit: x holds (a, i, f, o) for it, in that order.
    a, i, f, o, c_prev = 0.5, 1.0, -1.0, 2.0, 0.3
    c, h = chainerx.lstm(chainerx.array([[c_prev]]), chainerx.array([[a, i, f, o]]))
    c_expected = numpy.tanh(a) * _sigmoid(i) + _sigmoid(f) * c_prev
    chainerx.testing.assert_allclose(c, [[c_expected]], rtol=1e-12)
    chainerx.testing.assert_allclose(h, [[_sigmoid(o) * numpy.tanh(c_expected)]], rtol=1e-12)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize(
    ("c_shape", "x_batch"),
    [((3, 2), 3), ((1, 5), 1), ((4, 3), 2), ((2, 3, 2), 2), ((3, 2), 0), ((0, 2), 0)],
)
def test_lstm(dtype, c_shape, x_batch, layout, make_input):
    c_np, c = make_input(c_shape, dtype, seed=1, layout=layout)
    x_shape = _with_gates((x_batch,) + c_shape[1:], 4)
    x_np, x = make_input(x_shape, dtype, seed=2, layout=layout)
    _check(chainerx.lstm(c, x), _lstm_ref(c_np.astype(float), x_np.astype(float)), dtype)


def test_lstm_rows_past_the_batch_pass_through():
    c_prev = chainerx.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    c, h = chainerx.lstm(c_prev, chainerx.zeros((1, 8), numpy.float64))
    assert h.shape == (1, 2)
    chainerx.testing.assert_allclose(c[1:], [[3.0, 4.0], [5.0, 6.0]])


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("c_shape", [(3, 2), (1, 1), (2, 3, 2)])
def test_slstm(dtype, c_shape, layout, make_input):
    c1_np, c1 = make_input(c_shape, dtype, seed=1, layout=layout)
    c2_np, c2 = make_input(c_shape, dtype, seed=2)
    x1_np, x1 = make_input(_with_gates(c_shape, 4), dtype, seed=3, layout=layout)
    x2_np, x2 = make_input(_with_gates(c_shape, 4), dtype, seed=4)
    expected = _slstm_ref(*(v.astype(float) for v in (c1_np, c2_np, x1_np, x2_np)))
    _check(chainerx.slstm(c1, c2, x1, x2), expected, dtype)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("n_children", [1, 2, 3])
@pytest.mark.parametrize("c_shape", [(3, 2), (1, 1), (2, 3, 2)])
def test_tree_lstm(dtype, n_children, c_shape, layout, make_input):
    cs = [make_input(c_shape, dtype, seed=k, layout=layout) for k in range(n_children)]
    x_np, x = make_input(_with_gates(c_shape, 3 + n_children), dtype, seed=9, layout=layout)
    expected = _tree_lstm_ref(*(c_np.astype(float) for c_np, _ in cs), x_np.astype(float))
    _check(chainerx.tree_lstm(*(c for _, c in cs), x), expected, dtype)


def _both_outputs(fn):
    """fn's (c, h) flattened into one array, so one gradient check covers both."""
    return lambda *args: chainerx.concatenate([v.reshape(-1) for v in fn(*args)])


@pytest.mark.parametrize(("c_shape", "x_batch"), [((2, 3), 2), ((3, 2), 1), ((2, 1, 2), 2)])
def test_lstm_gradients(c_shape, x_batch):
    rng = numpy.random.default_rng(3)
    c = rng.uniform(-1, 1, c_shape)
    x = rng.uniform(-1, 1, _with_gates((x_batch,) + c_shape[1:], 4))
    check_backward(_both_outputs(chainerx.lstm), [c, x], double_backprop=True)


def test_slstm_gradients():
    rng = numpy.random.default_rng(4)
    args = [rng.uniform(-1, 1, s) for s in [(2, 2), (2, 2), (2, 8), (2, 8)]]
    check_backward(_both_outputs(chainerx.slstm), args, double_backprop=True)


@pytest.mark.parametrize("n_children", [1, 2])
def test_tree_lstm_gradients(n_children):
    rng = numpy.random.default_rng(5)
    args = [rng.uniform(-1, 1, (2, 2)) for _ in range(n_children)]
    args.append(rng.uniform(-1, 1, (2, 2 * (3 + n_children))))
    check_backward(_both_outputs(chainerx.tree_lstm), args, double_backprop=True)


def test_lstm_errors():
    with pytest.raises(chainerx.DtypeError, match="lstm requires a floating dtype, got int32"):
        chainerx.lstm(chainerx.zeros((2, 3), numpy.int32), chainerx.zeros((2, 12), numpy.int32))
    with pytest.raises(
        chainerx.DtypeError,
        match="lstm: cell states and inputs must share one dtype, got float32 and float64",
    ):
        chainerx.lstm(chainerx.zeros((2, 3)), chainerx.zeros((2, 12), numpy.float64))
    with pytest.raises(
        chainerx.DimensionError,
        match=r"lstm: cell states need at least 2 axes \(batch, units, \.\.\.\), got shape \(3,\)",
    ):
        chainerx.lstm(chainerx.zeros((3,)), chainerx.zeros((12,)))
    with pytest.raises(
        chainerx.DimensionError,
        match=r"lstm: x of shape \(2, 10\) does not fit the cell state of shape \(2, 3\): "
        r"x needs 4 \* 3 channels on axis 1, the state's other axes and at most its batch",
    ):
        chainerx.lstm(chainerx.zeros((2, 3)), chainerx.zeros((2, 10)))
    with pytest.raises(chainerx.DimensionError, match="at most its batch"):
        chainerx.lstm(chainerx.zeros((2, 3)), chainerx.zeros((3, 12)))
    with pytest.raises(chainerx.DimensionError, match="the state's other axes"):
        chainerx.lstm(chainerx.zeros((2, 3, 4)), chainerx.zeros((2, 12, 5)))


def test_slstm_errors():
    with pytest.raises(
        chainerx.DimensionError,
        match=r"slstm: c_prev1 and c_prev2 \(shapes \(2, 3\), \(2, 2\)\) and x1 and x2 "
        r"\(shapes \(2, 12\), \(2, 12\)\) must have equal shapes",
    ):
        chainerx.slstm(
            chainerx.zeros((2, 3)),
            chainerx.zeros((2, 2)),
            chainerx.zeros((2, 12)),
            chainerx.zeros((2, 12)),
        )
    with pytest.raises(chainerx.DimensionError, match="slstm: .* and its batch"):
        zeros = [chainerx.zeros((2, 3)), chainerx.zeros((2, 3))]
        chainerx.slstm(*zeros, chainerx.zeros((1, 12)), chainerx.zeros((1, 12)))


def test_tree_lstm_errors():
    with pytest.raises(
        chainerx.ChainerxError,
        match=r"tree_lstm: expected the cell states of at least one child followed by x, "
        r"got 1 array\(s\)",
    ):
        chainerx.tree_lstm(chainerx.zeros((2, 9)))
    with pytest.raises(
        chainerx.DimensionError,
        match=r"the children's cell states must have one shape, got \(2, 3\) and \(2, 2\)",
    ):
        chainerx.tree_lstm(chainerx.zeros((2, 3)), chainerx.zeros((2, 2)), chainerx.zeros((2, 15)))
    with pytest.raises(chainerx.DimensionError, match=r"x needs 5 \* 3 channels on axis 1"):
        chainerx.tree_lstm(chainerx.zeros((2, 3)), chainerx.zeros((2, 3)), chainerx.zeros((2, 12)))
