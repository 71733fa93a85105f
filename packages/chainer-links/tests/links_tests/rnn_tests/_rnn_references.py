"""NumPy references (float64) of the recurrent cells the rnn links compute."""

import numpy


def sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def interleaved_gates(z, n_gates):
    """Gate ``k`` of every unit: channel ``n_gates * u + k`` of ``z`` (B, n_gates * N)."""
    grouped = z.reshape(len(z), -1, n_gates)
    return [grouped[:, :, k] for k in range(n_gates)]


def lstm_step(c, h, x, W_up, b_up, W_lat):
    """One step of ``L.LSTM``: interleaved gates ``a, i, f, o``; ``h`` may be ``None``."""
    z = x @ W_up.T + b_up
    if h is not None:
        z = z + h @ W_lat.T
    a, i, f, o = interleaved_gates(z, 4)
    c_new = numpy.tanh(a) * sigmoid(i) + sigmoid(f) * c
    return c_new, sigmoid(o) * numpy.tanh(c_new)


def gru_step(h, x, p):
    """One step of ``L.StatelessGRU``; ``p`` maps ``'W_r'``.. to ``(W, b)`` pairs."""

    def lin(name, v):
        W, b = p[name]
        return v @ W.T + b

    r = sigmoid(lin("W_r", x) + lin("U_r", h))
    z = sigmoid(lin("W_z", x) + lin("U_z", h))
    h_bar = numpy.tanh(lin("W", x) + lin("U", r * h))
    return z * h_bar + (1 - z) * h


def tree_lstm_cell(cs, gates):
    """The TreeLSTM cell on block-ordered gates ``a, i, o, f_1 .. f_n`` (B, (3 + n) N)."""
    a, i, o, *fs = numpy.split(gates, 3 + len(cs), axis=1)
    c = numpy.tanh(a) * sigmoid(i) + sum(sigmoid(f) * c_k for f, c_k in zip(fs, cs))
    return c, sigmoid(o) * numpy.tanh(c)


# -- stacked networks, one sequence at a time ------------------------------------------------


def _lstm_cell(x, state, w, b):
    h, c = state
    i = sigmoid(w[0] @ x + b[0] + w[4] @ h + b[4])
    f = sigmoid(w[1] @ x + b[1] + w[5] @ h + b[5])
    a = numpy.tanh(w[2] @ x + b[2] + w[6] @ h + b[6])
    o = sigmoid(w[3] @ x + b[3] + w[7] @ h + b[7])
    c = f * c + i * a
    return o * numpy.tanh(c), c


def _gru_cell(x, state, w, b):
    (h,) = state
    r = sigmoid(w[0] @ x + b[0] + w[3] @ h + b[3])
    z = sigmoid(w[1] @ x + b[1] + w[4] @ h + b[4])
    n = numpy.tanh(w[2] @ x + b[2] + r * (w[5] @ h + b[5]))
    return ((1 - z) * n + z * h,)


def _elman_cell(activation):
    def cell(x, state, w, b):
        (h,) = state
        return (activation(w[0] @ x + b[0] + w[1] @ h + b[1]),)

    return cell


CELLS = {
    "lstm": _lstm_cell,
    "gru": _gru_cell,
    "tanh": _elman_cell(numpy.tanh),
    "relu": _elman_cell(lambda v: numpy.maximum(v, 0)),
}


def n_step_reference(cell, n_layers, bidirectional, states, ws, bs, xs):
    """Stacked (bi-directional) network over each sequence ``xs[s]`` on its own.

    Args:
        cell: A key of :data:`CELLS`.
        states: Initial states, each ``(n_layers * directions, len(xs), N)``.
        ws, bs: ``ws[k][j]`` for layer and direction ``k``.

    Returns:
        ``(finals, ys)``: final states like ``states`` and the outputs ``ys[s]``.
    """
    step = CELLS[cell]
    directions = 2 if bidirectional else 1
    finals = [numpy.array(s, numpy.float64) for s in states]
    ys = []
    for s, seq in enumerate(xs):
        inputs = [numpy.asarray(x, numpy.float64) for x in seq]
        for layer in range(n_layers):
            outputs = []
            for d in range(directions):
                k = layer * directions + d
                state = tuple(st[k, s] for st in states)
                order = range(len(inputs)) if d == 0 else reversed(range(len(inputs)))
                hs = [None] * len(inputs)
                for t in order:
                    state = step(inputs[t], state, ws[k], bs[k])
                    hs[t] = state[0]
                for final, value in zip(finals, state):
                    final[k, s] = value
                outputs.append(hs)
            inputs = [numpy.concatenate([o[t] for o in outputs]) for t in range(len(inputs))]
        ys.append(numpy.stack(inputs))
    return finals, ys
