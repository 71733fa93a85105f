"""Converters of chainer.functions.rnn (the cell functions; n_step_* decompose into others)."""

from __future__ import annotations

from onnx_chainer.functions import _forms as forms
from onnx_chainer.functions._registry import support
from onnx_chainer.onnx_helper import GraphBuilder


def _gates(gb, params, x: str, index: int, n: int, blocked: bool) -> list[str]:
    """The ``n`` pre-activation gates of input ``index``, each of shape ``(B, H, ...)``.

    ``lstm``/``slstm`` interleave them along axis 1 (channel ``u * n + k`` is gate ``k`` of unit
    ``u``), ``tree_lstm`` lays them out in blocks (channel ``k * H + u``).
    """
    shape = forms.input_shape(params, index)
    units = shape[1] // n
    grouped = [shape[0], n, units] if blocked else [shape[0], units, n]
    axis = 1 if blocked else 2
    gates = forms.reshape(gb, params, x, [*grouped, *shape[2:]])
    pieces = [f"{params.context.current_name}_in{index}_gate_{k}" for k in range(n)]
    forms.split(gb, params, gates, [1] * n, axis, pieces)
    return [forms.squeeze(gb, params, p, [axis]) for p in pieces]


def _cell(gb, params, inputs, o: str, fs, cs) -> None:
    """``c = sum tanh(a) sigmoid(i) + sum sigmoid(f_k) c_k``, ``h = sigmoid(o) tanh(c)``."""
    terms = [gb.op("Mul", [gb.op("Tanh", [a]), gb.op("Sigmoid", [i])]) for a, i in inputs]
    terms += [gb.op("Mul", [gb.op("Sigmoid", [f]), c]) for f, c in zip(fs, cs)]
    c_name, h_name = params.output_names
    total = terms[0]
    for term in terms[1:-1]:
        total = gb.op("Add", [total, term])
    forms.emit(gb, "Add", [total, terms[-1]], c_name)
    forms.emit(gb, "Mul", [gb.op("Sigmoid", [o]), gb.op("Tanh", [c_name])], h_name)


@support("LSTM", input_labels=("c", "x"))
def convert_lstm(params):
    c_prev, x = params.input_names
    c_shape, x_shape = forms.input_shape(params, 0), forms.input_shape(params, 1)
    if c_shape[0] != x_shape[0]:
        raise ValueError(
            f"LSTM: a shrinking batch (c {c_shape}, x {x_shape}) is not exported; pass the "
            "same batch size for c and x"
        )
    gb = GraphBuilder()
    a, i, f, o = _gates(gb, params, x, 1, 4, blocked=False)
    _cell(gb, params, [(a, i)], o, [f], [c_prev])
    return gb.nodes()


@support("SLSTM", input_labels=("c_prev1", "c_prev2", "x1", "x2"))
def convert_slstm(params):
    c1, c2, x1, x2 = params.input_names
    gb = GraphBuilder()
    a1, i1, f1, o1 = _gates(gb, params, x1, 2, 4, blocked=False)
    a2, i2, f2, o2 = _gates(gb, params, x2, 3, 4, blocked=False)
    _cell(gb, params, [(a1, i1), (a2, i2)], gb.op("Add", [o1, o2]), [f1, f2], [c1, c2])
    return gb.nodes()


@support("TreeLSTM")
def convert_tree_lstm(params):
    *cs, x = params.input_names
    gb = GraphBuilder()
    a, i, o, *fs = _gates(gb, params, x, len(cs), 3 + len(cs), blocked=True)
    _cell(gb, params, [(a, i)], o, fs, cs)
    return gb.nodes()


def _rows(gb, params, x: str, start: int, stop: int, total: int) -> str:
    """Rows ``start:stop`` of ``x`` (``x`` itself when that is every row)."""
    if start == 0 and stop == total:
        return x
    return forms.slice_(gb, params, x, [start], [stop], [0])


@support("LSTMRecurrence", input_labels=("x_gates", "h0", "c0", "W_h"))
def convert_lstm_recurrence(params):
    """One direction of an ``n_step_lstm`` layer, unrolled over its (static) time steps.

    The gates of ``x_gates`` and ``W_h`` are blocks ``i, f, a, o``; step ``t`` updates the
    first ``B_t`` rows of the state (batches are non-increasing), the other rows keep theirs.
    """
    func = params.func
    x_gates, h0, c0, w_h = params.input_names
    batch0, units = forms.input_shape(params, 1)
    gb = GraphBuilder()
    w_h_t = gb.op("Transpose", [w_h], perm=[1, 0])
    starts = [sum(func.batches[:t]) for t in range(len(func.batches))]
    order = range(len(func.batches))
    h, c = h0, c0
    step_outputs = {}
    for t in reversed(order) if func.reverse else order:
        batch = func.batches[t]
        if batch == 0:
            continue
        z = gb.op(
            "Add",
            [
                gb.op("MatMul", [_rows(gb, params, h, 0, batch, batch0), w_h_t]),
                _rows(gb, params, x_gates, starts[t], starts[t] + batch, -1),
            ],
        )
        gates = [f"{params.context.current_name}_t{t}_gate_{g}" for g in "ifao"]
        forms.split(gb, params, z, [units] * 4, 1, gates)
        i, f, o = (gb.op("Sigmoid", [gates[k]]) for k in (0, 1, 3))
        a = gb.op("Tanh", [gates[2]])
        c_prev = _rows(gb, params, c, 0, batch, batch0)
        c_new = gb.op("Add", [gb.op("Mul", [f, c_prev]), gb.op("Mul", [i, a])])
        h_new = gb.op("Mul", [o, gb.op("Tanh", [c_new])])
        step_outputs[t] = h_new
        if batch < batch0:
            h_new = gb.op("Concat", [h_new, _rows(gb, params, h, batch, batch0, -1)], axis=0)
            c_new = gb.op("Concat", [c_new, _rows(gb, params, c, batch, batch0, -1)], axis=0)
        h, c = h_new, c_new
    hs_name, hy_name, cy_name = params.output_names
    forms.emit(gb, "Concat", [step_outputs[t] for t in sorted(step_outputs)], hs_name, axis=0)
    forms.emit(gb, "Identity", [h], hy_name)
    forms.emit(gb, "Identity", [c], cy_name)
    return gb.nodes()
