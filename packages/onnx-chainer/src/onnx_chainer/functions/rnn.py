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
