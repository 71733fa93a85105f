"""Converters of chainer.functions.rnn (the cell functions; n_step_* decompose into others)."""

from __future__ import annotations

from onnx_chainer.functions import _forms as forms
from onnx_chainer.functions._registry import support
from onnx_chainer.onnx_helper import GraphBuilder


@support("LSTM", input_labels=("c", "x"))
def convert_lstm(params):
    c_prev, x = params.input_names
    c_shape, x_shape = forms.input_shape(params, 0), forms.input_shape(params, 1)
    if c_shape[0] != x_shape[0]:
        raise ValueError(
            f"LSTM: a shrinking batch (c {c_shape}, x {x_shape}) is not exported; pass the "
            "same batch size for c and x"
        )
    units = x_shape[1] // 4
    gb = GraphBuilder()
    gates = forms.reshape(gb, params, x, [x_shape[0], units, 4, *x_shape[2:]])
    pieces = [f"{params.context.current_name}_gate_{g}" for g in "aifo"]
    forms.split(gb, params, gates, [1, 1, 1, 1], 2, pieces)
    a, i, f, o = (forms.squeeze(gb, params, p, [2]) for p in pieces)
    a = gb.op("Tanh", [a])
    i, f, o = (gb.op("Sigmoid", [g]) for g in (i, f, o))
    c_name, h_name = params.output_names
    forms.emit(gb, "Add", [gb.op("Mul", [a, i]), gb.op("Mul", [f, c_prev])], c_name)
    forms.emit(gb, "Mul", [o, gb.op("Tanh", [c_name])], h_name)
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
