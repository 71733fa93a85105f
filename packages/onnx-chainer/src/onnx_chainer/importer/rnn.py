"""Importers of the recurrent layers LSTM, GRU and RNN (default activations), unrolled over
time with ``chainer.functions`` so they train like any other part of the model."""

from __future__ import annotations

import chainer.functions as F
from chainer.backend import get_array_module
from onnx_chainer.importer._registry import NodeContext, importer
from onnx_chainer.importer.math import raw

_DEFAULT_ACTIVATIONS = {
    "LSTM": ["Sigmoid", "Tanh", "Tanh"],
    "GRU": ["Sigmoid", "Tanh"],
    "RNN": ["Tanh"],
}
_GATES = {"LSTM": 4, "GRU": 3, "RNN": 1}


def _check_options(ctx: NodeContext, x, directions: int) -> None:
    activations = ctx.attr("activations", None, "any")
    if activations is not None:
        names = [a.decode() for a in activations]
        if names != _DEFAULT_ACTIVATIONS[ctx.op_type] * directions:
            raise ctx.error(f"activations {names} are not supported", unsupported=True)
    if ctx.attr("clip", None, "float") is not None:
        raise ctx.error("clip is not supported", unsupported=True)
    if ctx.attr("input_forget", 0, "int"):
        raise ctx.error("input_forget=1 is not supported", unsupported=True)
    lengths = ctx.input(4)
    if lengths is not None:
        lengths = raw(lengths)
        if not bool(get_array_module(lengths).all(lengths == x.shape[0])):
            raise ctx.error("sequence_lens shorter than the sequence are not supported", True)


def _lstm_step(x_t, h, c, r, rb, peephole, hidden):
    gates = x_t + F.linear(h, r, rb)
    i, o, f, g = F.split_axis(gates, 4, axis=1)
    if peephole is not None:
        p_i, p_o, p_f = F.split_axis(peephole, 3, axis=0)
        i = i + F.broadcast_to(p_i, c.shape) * c
        f = f + F.broadcast_to(p_f, c.shape) * c
    c = F.sigmoid(f) * c + F.sigmoid(i) * F.tanh(g)
    if peephole is not None:
        o = o + F.broadcast_to(p_o, c.shape) * c
    return F.sigmoid(o) * F.tanh(c), c


def _gru_step(x_t, h, r, rb, linear_before_reset, hidden):
    xz, xr, xh = F.split_axis(x_t, 3, axis=1)
    rz, rr, rh = F.split_axis(r, 3, axis=0)
    bz, br, bh = F.split_axis(rb, 3, axis=0) if rb is not None else (None, None, None)
    z = F.sigmoid(xz + F.linear(h, rz, bz))
    reset = F.sigmoid(xr + F.linear(h, rr, br))
    if linear_before_reset:
        candidate = F.tanh(xh + reset * F.linear(h, rh, bh))
    else:
        candidate = F.tanh(xh + F.linear(reset * h, rh, bh))
    return (1 - z) * candidate + z * h


@importer("LSTM", "GRU", "RNN", static_inputs=(4,))
def recurrent(ctx: NodeContext):
    x, w, r, b = ctx.input(0), ctx.input(1), ctx.input(2), ctx.input(3)
    batch_first = ctx.attr("layout", 0, "int") == 1
    if batch_first:
        x = F.transpose(x, (1, 0, 2))
    direction = ctx.attr("direction", "forward", "str")
    directions = 2 if direction == "bidirectional" else 1
    _check_options(ctx, x, directions)
    hidden = ctx.attr("hidden_size", r.shape[-1], "int")
    steps, batch = x.shape[0], x.shape[1]
    gates = _GATES[ctx.op_type]
    zeros = get_array_module(raw(x)).zeros((batch, hidden), x.dtype)
    ys, last_h, last_c = [], [], []
    for d in range(directions):
        wb = rb = None
        if b is not None:
            wb, rb = F.split_axis(b[d], 2, axis=0)
        x_proj = F.reshape(
            F.linear(F.reshape(x, (steps * batch, -1)), w[d], wb), (steps, batch, gates * hidden)
        )
        h = ctx.input(5)[d] if ctx.input(5) is not None else zeros
        c = ctx.input(6)[d] if ctx.input(6) is not None else zeros
        peephole = ctx.input(7)[d] if ctx.input(7) is not None else None
        reverse = direction == "reverse" or d == 1
        order = range(steps - 1, -1, -1) if reverse else range(steps)
        outputs = [None] * steps
        for t in order:
            if ctx.op_type == "LSTM":
                h, c = _lstm_step(x_proj[t], h, c, r[d], rb, peephole, hidden)
            elif ctx.op_type == "GRU":
                h = _gru_step(
                    x_proj[t], h, r[d], rb, ctx.attr("linear_before_reset", 0, "int"), hidden
                )
            else:
                h = F.tanh(x_proj[t] + F.linear(h, r[d], rb))
            outputs[t] = h
        ys.append(F.stack(outputs, axis=0))  # (steps, batch, hidden)
        last_h.append(h)
        last_c.append(c)
    y = F.stack(ys, axis=1)  # (steps, dirs, batch, hidden)
    y_h, y_c = F.stack(last_h, axis=0), F.stack(last_c, axis=0)
    if batch_first:
        y, y_h, y_c = (
            F.transpose(y, (2, 0, 1, 3)),
            F.transpose(y_h, (1, 0, 2)),
            F.transpose(y_c, (1, 0, 2)),
        )
    return (y, y_h, y_c) if ctx.op_type == "LSTM" else (y, y_h)
