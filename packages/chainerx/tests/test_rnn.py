"""n_step_lstm, n_step_gru, n_step_rnn and their bi-directional forms against NumPy loops."""

import numpy
import pytest

import chainerx
import chainerx.testing
from chainerx.testing._gradient import check_backward

# name: (routine, cell, bi-directional)
ROUTINES = {
    "lstm": (chainerx.n_step_lstm, "lstm", False),
    "bilstm": (chainerx.n_step_bilstm, "lstm", True),
    "gru": (chainerx.n_step_gru, "gru", False),
    "bigru": (chainerx.n_step_bigru, "gru", True),
    "rnn": (chainerx.n_step_rnn, "rnn", False),
    "birnn": (chainerx.n_step_birnn, "rnn", True),
}
WEIGHTS_PER_LAYER = {"lstm": 8, "gru": 6, "rnn": 2}


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _reference_direction(cell, activation, w, b, seq, reverse, h, c):
    """One direction of one layer over one sequence, step by step from the documented equations."""
    out = [None] * len(seq)
    steps = range(len(seq) - 1, -1, -1) if reverse else range(len(seq))
    for t in steps:
        x = seq[t]

        def term(j, v):
            return w[j] @ v + b[j]

        if cell == "lstm":
            i = _sigmoid(term(0, x) + term(4, h))
            f = _sigmoid(term(1, x) + term(5, h))
            a = numpy.tanh(term(2, x) + term(6, h))
            o = _sigmoid(term(3, x) + term(7, h))
            c = f * c + i * a
            h = o * numpy.tanh(c)
        elif cell == "gru":
            r = _sigmoid(term(0, x) + term(3, h))
            z = _sigmoid(term(1, x) + term(4, h))
            n = numpy.tanh(term(2, x) + r * term(5, h))
            h = (1 - z) * n + z * h
        else:
            v = term(0, x) + term(1, h)
            h = numpy.tanh(v) if activation == "tanh" else numpy.maximum(v, 0)
        out[t] = h
    return out, h, c


def reference(name, n_layers, hx, cx, ws, bs, xs, activation="tanh"):
    """(hy, cy, ys) in float64, each sequence run on its own."""
    _, cell, bi = ROUTINES[name]
    directions = 2 if bi else 1
    hy = numpy.empty(hx.shape)
    cy = numpy.empty(hx.shape)
    ys = []
    for i, x in enumerate(xs):
        seq = list(x.astype(numpy.float64))
        for layer in range(n_layers):
            outs = []
            for d in range(directions):
                s = layer * directions + d
                out, hy[s, i], cy[s, i] = _reference_direction(
                    cell, activation, ws[s], bs[s], seq, d == 1, hx[s, i], cx[s, i]
                )
                outs.append(out)
            seq = [numpy.concatenate([o[t] for o in outs]) for t in range(len(seq))]
        ys.append(numpy.array(seq).reshape(len(x), directions * hx.shape[2]))
    return hy, cy, ys


def make_args(name, n_layers, in_size, units, lengths, dtype="float64", seed=0):
    """NumPy arguments (hx, cx, ws, bs, xs) of one routine, with random values."""
    _, cell, bi = ROUTINES[name]
    rng = numpy.random.default_rng(seed)
    directions = 2 if bi else 1
    states = n_layers * directions
    gates = WEIGHTS_PER_LAYER[cell] // 2

    def uniform(*shape):
        return rng.uniform(-1, 1, shape).astype(dtype)

    hx = uniform(states, len(lengths), units)
    cx = uniform(states, len(lengths), units)
    ws, bs = [], []
    for s in range(states):
        layer_in = in_size if s < directions else directions * units
        ws.append([uniform(units, layer_in if j < gates else units) for j in range(2 * gates)])
        bs.append([uniform(units) for _ in range(2 * gates)])
    xs = [uniform(n, in_size) for n in lengths]
    return hx, cx, ws, bs, xs


def call(name, n_layers, hx, cx, ws, bs, xs, **kwargs):
    """Runs the routine on chainerx arrays; returns (states, ys), states = [hy] or [hy, cy]."""
    routine, cell, _ = ROUTINES[name]
    if cell == "lstm":
        hy, cy, ys = routine(n_layers, hx, cx, ws, bs, xs, **kwargs)
        return [hy, cy], ys
    hy, ys = routine(n_layers, hx, ws, bs, xs, **kwargs)
    return [hy], ys


def to_chx(hx, cx, ws, bs, xs):
    return (
        chainerx.array(hx),
        chainerx.array(cx),
        [[chainerx.array(w) for w in layer] for layer in ws],
        [[chainerx.array(b) for b in layer] for layer in bs],
        [chainerx.array(x) for x in xs],
    )


def assert_matches_reference(name, n_layers, np_args, chx_args, tol, **kwargs):
    states, ys = call(name, n_layers, *chx_args, **kwargs)
    hy, cy, expected_ys = reference(name, n_layers, *np_args, **kwargs)
    dtype = np_args[0].dtype
    for got, expected in zip(states, [hy, cy]):
        assert got.dtype == dtype
        chainerx.testing.assert_allclose(got, expected.astype(dtype), rtol=tol, atol=tol)
    assert isinstance(ys, list)
    assert len(ys) == len(expected_ys)
    for got, expected in zip(ys, expected_ys, strict=True):
        assert got.dtype == dtype
        chainerx.testing.assert_allclose(got, expected.astype(dtype), rtol=tol, atol=tol)


TOLERANCE = {"float16": 3e-2, "float32": 1e-5, "float64": 1e-12}


@pytest.mark.parametrize("name", sorted(ROUTINES))
@pytest.mark.parametrize("n_layers", [1, 2])
@pytest.mark.parametrize("lengths", [(4, 3, 3, 1), (3,), (2, 2)])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_matches_reference(name, n_layers, lengths, dtype):
    args = make_args(name, n_layers, 3, 4, lengths, dtype)
    assert_matches_reference(name, n_layers, args, to_chx(*args), TOLERANCE[dtype])


@pytest.mark.parametrize("name", ["rnn", "birnn"])
@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_activation(name, activation):
    args = make_args(name, 2, 3, 4, (4, 3, 3, 1))
    assert_matches_reference(name, 2, args, to_chx(*args), 1e-12, activation=activation)


@pytest.mark.parametrize("name", sorted(ROUTINES))
def test_non_contiguous_inputs(name):
    hx, cx, ws, bs, xs = make_args(name, 2, 3, 4, (4, 3, 1))
    # The same values held by transposed or strided views.
    hx_t = chainerx.array(numpy.ascontiguousarray(hx.transpose(2, 1, 0))).transpose(2, 1, 0)
    ws_t = [[chainerx.array(numpy.ascontiguousarray(w.T)).T for w in layer] for layer in ws]
    xs_s = [chainerx.array(numpy.repeat(x, 2, axis=1))[:, ::2] for x in xs]
    assert not hx_t.is_contiguous and not xs_s[0].is_contiguous
    bs_c = [[chainerx.array(b) for b in layer] for layer in bs]
    chx_args = (hx_t, chainerx.array(cx), ws_t, bs_c, xs_s)
    assert_matches_reference(name, 2, (hx, cx, ws, bs, xs), chx_args, 1e-12)


@pytest.mark.parametrize("name", sorted(ROUTINES))
def test_empty_sequences_keep_their_initial_state(name):
    args = make_args(name, 2, 2, 3, (3, 0, 0))
    assert_matches_reference(name, 2, args, to_chx(*args), 1e-12)
    states, ys = call(name, 2, *to_chx(*args))
    assert ys[1].shape == ys[2].shape == (0, 3 * (1 + ROUTINES[name][2]))
    for got, given in zip(states, args[:2]):
        chainerx.testing.assert_allclose(got[:, 1:], given[:, 1:], rtol=0, atol=0)


def _check_gradients(name, n_layers, lengths, double_backprop):
    hx, cx, ws, bs, xs = make_args(name, n_layers, 2, 2, lengths, seed=3)
    is_lstm = ROUTINES[name][1] == "lstm"
    per_layer = len(ws[0])
    # check_backward sees one function of flat arguments (hx, [cx], ws..., bs..., xs...) with
    # every output (hy, [cy], ys...) raveled into one array.
    flat = [hx] + [cx] * is_lstm + [a for lists in (ws, bs) for layer in lists for a in layer] + xs

    def f(*args):
        args = list(args)
        hx = args.pop(0)
        cx = args.pop(0) if is_lstm else None
        ws = [[args.pop(0) for _ in range(per_layer)] for _ in range(len(bs))]
        bs_ = [[args.pop(0) for _ in range(per_layer)] for _ in range(len(bs))]
        states, ys = call(name, n_layers, hx, cx, ws, bs_, args)
        return chainerx.concatenate([a.reshape(-1) for a in states + ys])

    check_backward(f, flat, double_backprop=double_backprop)


@pytest.mark.parametrize("name", sorted(ROUTINES))
def test_gradients(name):
    _check_gradients(name, 2, (2, 1), double_backprop=False)


@pytest.mark.parametrize("name", ["lstm", "gru", "rnn", "bilstm", "bigru", "birnn"])
def test_double_backprop(name):
    _check_gradients(name, 1, (2, 1), double_backprop=True)


def test_gradients_reach_every_input_once():
    # Only hy is used: the gradient still reaches the first layer's inputs through the recurrence.
    hx, cx, ws, bs, xs = to_chx(*make_args("lstm", 2, 3, 4, (4, 3, 3, 1)))
    for a in [hx, xs[3], ws[0][2]]:
        a.require_grad()
    hy, _, _ = chainerx.n_step_lstm(2, hx, cx, ws, bs, xs)
    hy.sum().backward()
    assert xs[3].grad.shape == (1, 3) and float(abs(xs[3].grad).sum()) > 0
    assert hx.grad.shape == hx.shape and ws[0][2].grad.shape == (4, 3)


def _lstm_args():
    return to_chx(*make_args("lstm", 2, 3, 4, (4, 3, 3, 1)))


def test_weight_count_errors():
    hx, cx, ws, bs, xs = _lstm_args()
    with pytest.raises(chainerx.DimensionError, match=r"lstm: ws\[1\] must hold 8 weights, got 7"):
        chainerx.n_step_lstm(2, hx, cx, [ws[0], ws[1][:7]], bs, xs)
    with pytest.raises(chainerx.DimensionError, match=r"lstm: bs\[0\] must hold 8 biases, got 9"):
        chainerx.n_step_lstm(2, hx, cx, ws, [bs[0] + bs[0][:1], bs[1]], xs)
    with pytest.raises(
        chainerx.DimensionError,
        match=r"ws and bs must hold 2 lists \(one per layer and direction\), got 1 and 2",
    ):
        chainerx.n_step_lstm(2, hx, cx, ws[:1], bs, xs)
    hx, _, ws, bs, xs = to_chx(*make_args("gru", 1, 3, 4, (2,)))
    with pytest.raises(chainerx.DimensionError, match=r"^n_step_gru: ws\[0\] must hold 6 weights"):
        chainerx.n_step_gru(1, hx, [ws[0] + ws[0][:2]], bs, xs)
    hx, _, ws, bs, xs = to_chx(*make_args("birnn", 1, 3, 4, (2,)))
    with pytest.raises(chainerx.DimensionError, match=r"^n_step_birnn: bs\[1\] must hold 2 "):
        chainerx.n_step_birnn(1, hx, ws, [bs[0], bs[1][:1]], xs)


def test_shape_errors():
    hx, cx, ws, bs, xs = _lstm_args()
    with pytest.raises(
        chainerx.DimensionError,
        match=r"n_step_bilstm: hx must have shape \(4, 4, units\) for 2 layer\(s\) and 4 "
        r"sequence\(s\), got \(2, 4, 4\)",
    ):
        chainerx.n_step_bilstm(2, hx, cx, ws, bs, xs)
    with pytest.raises(chainerx.DimensionError, match=r"hx must have shape \(2, 3, units\)"):
        chainerx.n_step_lstm(2, hx, cx, ws, bs, xs[:3])
    with pytest.raises(
        chainerx.DimensionError, match=r"lstm: cx must have shape \(2, 4, 4\), got \(2, 4, 3\)"
    ):
        chainerx.n_step_lstm(2, hx, cx[:, :, :3], ws, bs, xs)
    bad = [list(layer) for layer in ws]
    bad[1][0] = bad[1][0][:, :3]
    with pytest.raises(
        chainerx.DimensionError, match=r"lstm: ws\[1\]\[0\] must have shape \(4, 4\), got \(4, 3\)"
    ):
        chainerx.n_step_lstm(2, hx, cx, bad, bs, xs)
    with pytest.raises(
        chainerx.DimensionError,
        match=r"n_step_lstm: xs\[2\] must have shape \(length, 3\) like xs\[0\], got \(3, 2\)",
    ):
        chainerx.n_step_lstm(2, hx, cx, ws, bs, [xs[0], xs[1], xs[2][:, :2], xs[3]])
    with pytest.raises(chainerx.DimensionError, match="n_layers must be positive, got 0"):
        chainerx.n_step_lstm(0, hx, cx, ws, bs, xs)


def test_sequence_order_errors():
    hx, cx, ws, bs, xs = _lstm_args()
    with pytest.raises(
        chainerx.DimensionError,
        match=r"n_step_lstm: xs must be sorted by decreasing length, but xs\[2\] has length 3 "
        r"and xs\[1\] has 1",
    ):
        chainerx.n_step_lstm(2, hx, cx, ws, bs, [xs[0], xs[3], xs[2], xs[1]])
    with pytest.raises(chainerx.DimensionError, match="n_step_lstm: xs must not be empty"):
        chainerx.n_step_lstm(2, hx, cx, ws, bs, [])


def test_dtype_errors():
    hx, cx, ws, bs, xs = _lstm_args()
    with pytest.raises(
        chainerx.DtypeError,
        match=r"n_step_lstm: bs\[0\]\[5\] has dtype float32, expected float64 like xs\[0\]",
    ):
        bad = [bs[0][:5] + [bs[0][5].astype("f")] + bs[0][6:], bs[1]]
        chainerx.n_step_lstm(2, hx, cx, ws, bad, xs)
    with pytest.raises(chainerx.DtypeError, match="n_step_lstm requires a floating dtype"):
        chainerx.n_step_lstm(2, hx, cx, ws, bs, [x.astype("i") for x in xs])


@pytest.mark.parametrize("routine", [chainerx.n_step_rnn, chainerx.n_step_birnn])
def test_unknown_activation(routine):
    hx, _, ws, bs, xs = to_chx(*make_args("birnn", 1, 3, 4, (2,)))
    with pytest.raises(ValueError, match="activation must be 'tanh' or 'relu', got 'sigmoid'"):
        routine(1, hx, ws, bs, xs, activation="sigmoid")
