"""The LSTM cell shared by lstm, slstm and tree_lstm: gate layout, forward and backward.

Each of them computes, from pre-activation gates ``a, i, o, f_1 .. f_n`` and previous cells
``c_1 .. c_n``::

    c = tanh(a) * sigmoid(i) + sum_k sigmoid(f_k) * c_k
    h = sigmoid(o) * tanh(c)

The gates are interleaved along axis 1 of the input, as in Chainer: with ``H`` units and ``n``
gates, gate ``k`` of unit ``u`` is channel ``u * n + k``.
"""

from __future__ import annotations

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.activation.sigmoid import sigmoid, sigmoid_array
from chainer.functions.activation.tanh import tanh
from chainer.variable import Variable


def split_gate_arrays(x, n: int, blocked: bool = False) -> list:
    """The ``n`` gates of an array along axis 1, as views of shape ``(B, H, ...)``.

    Chainer's ``lstm``/``slstm`` interleave the gates (channel ``n * h + k`` is gate ``k`` of
    unit ``h``); its ``tree_lstm`` lays them out in blocks (channel ``k * H + h``).
    """
    if blocked:
        grouped = x.reshape((x.shape[0], n, x.shape[1] // n) + x.shape[2:])
        return [grouped[:, k] for k in range(n)]
    grouped = x.reshape((x.shape[0], x.shape[1] // n, n) + x.shape[2:])
    return [grouped[:, :, k] for k in range(n)]


class SplitGates(FunctionNode):
    """Differentiable :func:`split_gate_arrays`: one output per gate."""

    def __init__(self, n: int, blocked: bool = False) -> None:
        self.n = n
        self.blocked = blocked

    def forward(self, inputs: tuple) -> tuple:
        return tuple(split_gate_arrays(inputs[0], self.n, self.blocked))

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return MergeGates(self.blocked).apply(_zeros_for_missing(grad_outputs))


class MergeGates(FunctionNode):
    """Join ``n`` gate arrays of shape ``(B, H, ...)`` into one of ``(B, n * H, ...)``."""

    def __init__(self, blocked: bool = False) -> None:
        self.blocked = blocked

    def forward(self, inputs: tuple) -> tuple:
        xp = backend.get_array_module(*inputs)
        g = inputs[0]
        merged = xp.stack(inputs, axis=1 if self.blocked else 2)
        return (merged.reshape((g.shape[0], g.shape[1] * len(inputs)) + g.shape[2:]),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return SplitGates(len(self.inputs), self.blocked).apply(grad_outputs)


def _zeros_for_missing(grads: tuple) -> tuple:
    """Replace missing gradients by zeros (all gates have one shape)."""
    present = next(g for g in grads if g is not None)
    return tuple(zeros_like(present) if g is None else g for g in grads)


def zeros_like(template: Variable) -> Variable:
    """A constant zero variable of ``template``'s shape, dtype and device."""
    return Variable(template.xp.zeros_like(template.array), requires_grad=False)


def cell_forward(xp, inputs: list, o, fs: list, cs: list) -> tuple:
    """The new cell ``c`` and output ``h`` from pre-activation gate arrays.

    ``inputs`` holds ``(a, i)`` pairs, each adding ``tanh(a) * sigmoid(i)`` to the cell (one
    pair for an LSTM, one per child for an S-LSTM).
    """
    c = None
    for a, i in inputs:
        term = xp.tanh(a) * sigmoid_array(xp, i)
        c = term if c is None else c + term
    for f, c_prev in zip(fs, cs):
        c += sigmoid_array(xp, f) * c_prev
    h = sigmoid_array(xp, o) * xp.tanh(c)
    return c, h


def cell_backward(inputs: list, o, fs: list, cs: list, gc, gh) -> tuple:
    """Gradients of the pre-activation gates and of the previous cells, as variables.

    The activations are recomputed from the gate variables, so the results are differentiable
    again (double backprop).

    Args:
        inputs: ``(a, i)`` pairs of pre-activation gate variables (see :func:`cell_forward`).
        o: Pre-activation output-gate variable.
        fs: Pre-activation forget-gate variables, one per previous cell.
        cs: Previous cell variables.
        gc: Gradient of the new cell (``None`` for zero).
        gh: Gradient of the output (``None`` for zero).

    Returns:
        ``(gas, gis, go, gfs, gcs)``, the first two with one entry per pair of ``inputs``.
    """
    acts = [(tanh(a), sigmoid(i)) for a, i in inputs]
    o = sigmoid(o)
    fs = [sigmoid(f) for f in fs]
    if gh is None:
        go = zeros_like(gc)
        gc_total = gc
    else:
        c = None
        for a, i in acts:
            c = a * i if c is None else c + a * i
        for f, c_prev in zip(fs, cs):
            c = c + f * c_prev
        tanh_c = tanh(c)
        go = gh * tanh_c * o * (1 - o)
        gc_from_h = gh * o * (1 - tanh_c * tanh_c)
        gc_total = gc_from_h if gc is None else gc + gc_from_h
    gas = [gc_total * i * (1 - a * a) for a, i in acts]
    gis = [gc_total * a * i * (1 - i) for a, i in acts]
    gfs = [gc_total * c_prev * f * (1 - f) for f, c_prev in zip(fs, cs)]
    gcs = [gc_total * f for f in fs]
    return gas, gis, go, gfs, gcs
