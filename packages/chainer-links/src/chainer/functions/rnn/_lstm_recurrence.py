"""One direction of one n_step_lstm layer over all time steps, as a single node.

A graph of per-step nodes costs more in bookkeeping than the small GEMMs of a step cost in
arithmetic, and it sums the hidden weights' gradient from one array per step. This node runs
the time loop on arrays instead: per step one GEMM and the elementwise cell, in backward one
GEMM per step plus a single GEMM for the whole weight gradient.

The gates are four contiguous blocks of ``N`` units in the order of n_step_lstm's weights:
input gate ``i``, forget gate ``f``, cell input ``a``, output gate ``o``::

    c = sigmoid(f) * c_prev + sigmoid(i) * tanh(a)
    h = sigmoid(o) * tanh(c)
"""

from __future__ import annotations

from chainer import backend
from chainer.configuration import config
from chainer.function_node import FunctionNode
from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.activation.tanh import tanh
from chainer.functions.array.split_axis import split_axis
from chainer.functions.connection.linear import linear
from chainer.functions.rnn._n_step_rnn_base import composed_recurrence
from chainer.functions.rnn._recompute import differentiate
from chainer.variable import Variable


def _lstm_step(x_gates, state: tuple, W_h, b_h) -> tuple:
    """The cell from differentiable functions (for gradients of gradients)."""
    h, c = state
    i, f, a, o = split_axis(x_gates + linear(h, W_h, b_h), 4, axis=1)
    c = sigmoid(f) * c + sigmoid(i) * tanh(a)
    return sigmoid(o) * tanh(c), c


_composed_lstm = composed_recurrence(_lstm_step)


def _gate_scales(xp, dtype, batch: int, units: int) -> tuple:
    """Per-gate ``(scale, offset)`` of shape ``(batch, 4, units)`` that turn one tanh into all
    gates: ``sigmoid(z) = tanh(z / 2) / 2 + 1 / 2`` for ``i, f, o`` and ``tanh(z)`` for ``a``.

    Written out in full: NumPy multiplies by an operand broadcast along the innermost axis
    several times slower than by a contiguous one (the same values either way).
    """
    scale = xp.asarray([[0.5], [0.5], [1.0], [0.5]], dtype)
    offset = xp.asarray([[0.5], [0.5], [0.0], [0.5]], dtype)
    shape = (batch, 4, units)
    return xp.broadcast_to(scale, shape).copy(), xp.broadcast_to(offset, shape).copy()


def _slopes(xp, act, c_prev, tanh_c):
    """What the gradients of all steps need from the forward pass, computed at once.

    With ``g_cell`` the gradient of the cell and ``gh`` of the output, the gates' gradients
    are ``g_i, g_f, g_a = g_cell * slopes[:, 0..2]`` and ``g_o = gh * slopes[:, 4]``, and
    ``g_cell = gc + gh * slopes[:, 3]``. In-place operations only: large temporaries cost
    more to allocate than to fill.
    """
    i, f, a, o = (act[:, k] for k in range(4))
    slopes = xp.empty((len(act), 5, act.shape[2]), act.dtype)
    s = slopes[:, 0]  # a * i * (1 - i)
    xp.subtract(1, i, out=s)
    s *= i
    s *= a
    s = slopes[:, 1]  # c_prev * f * (1 - f)
    xp.subtract(1, f, out=s)
    s *= f
    s *= c_prev
    s = slopes[:, 2]  # i * (1 - a ** 2)
    xp.multiply(a, a, out=s)
    xp.subtract(1, s, out=s)
    s *= i
    s = slopes[:, 3]  # o * (1 - tanh(c) ** 2)
    xp.multiply(tanh_c, tanh_c, out=s)
    xp.subtract(1, s, out=s)
    s *= o
    s = slopes[:, 4]  # tanh(c) * o * (1 - o)
    xp.subtract(1, o, out=s)
    s *= o
    s *= tanh_c
    return slopes


class LSTMRecurrence(FunctionNode):
    """``(x_gates, h0, c0, W_h) -> (hs, hy, cy)`` for one layer and direction.

    ``x_gates`` ``(sum B_t, 4N)`` holds the input projections of all steps (both biases
    included), the rows of step ``t`` after those of step ``t - 1``; ``hs`` holds the outputs
    in the same layout. ``h0``, ``c0``, ``hy``, ``cy`` are ``(B_0, N)``; ``W_h`` is
    ``(4N, N)``.

    Args:
        batches: The batch size ``B_t`` of every step, non-increasing.
        reverse: Run from the last step to the first.
    """

    def __init__(self, batches: list, reverse: bool) -> None:
        self.batches = batches
        self.reverse = reverse

    def _steps(self) -> list:
        """``(rows, batch)`` of every step in the order the forward pass visits them."""
        steps = []
        start = 0
        for batch in self.batches:
            steps.append((slice(start, start + batch), batch))
            start += batch
        return steps[::-1] if self.reverse else steps

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1, 2, 3))
        x_gates, h0, c0, W_h = inputs
        xp = backend.get_array_module(*inputs)
        total, units = len(x_gates), h0.shape[1]
        scale, offset = _gate_scales(xp, x_gates.dtype, len(h0), units)
        h, c = h0.copy(), c0.copy()  # rows [:B_t] are updated in place at step t
        # What backward needs, in the row layout of x_gates (no per-step arrays to keep).
        act = xp.empty((total, 4, units), x_gates.dtype)  # the activated gates i, f, a, o
        h_prev, c_prev, tanh_c, hs = (xp.empty((total, units), h0.dtype) for _ in range(4))
        for rows, batch in self._steps():
            z = h[:batch].dot(W_h.T)
            z += x_gates[rows]
            gates = act[rows]
            xp.multiply(z.reshape(batch, 4, units), scale[:batch], out=gates)
            xp.tanh(gates, out=gates)
            gates *= scale[:batch]
            gates += offset[:batch]
            h_prev[rows] = h[:batch]
            c_prev[rows] = c[:batch]
            c[:batch] *= gates[:, 1]
            c[:batch] += gates[:, 0] * gates[:, 2]
            xp.tanh(c[:batch], out=tanh_c[rows])
            xp.multiply(gates[:, 3], tanh_c[rows], out=h[:batch])
            hs[rows] = h[:batch]
        self._saved = act, h_prev, c_prev, tanh_c
        return hs, h, c

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        x_gates, h, c, W_h = inputs
        units, full = h.shape[1], h.shape[0]
        W_h_T = W_h.T
        hs = [None] * len(self.batches)
        steps = self._steps()
        for k, (rows, batch) in enumerate(steps):
            z = x_gates[rows] + chainerx.dot(h[:batch], W_h_T)
            i, f, a, o = (z[:, g * units : (g + 1) * units] for g in range(4))
            c_t = chainerx.sigmoid(f) * c[:batch] + chainerx.sigmoid(i) * chainerx.tanh(a)
            h_t = chainerx.sigmoid(o) * chainerx.tanh(c_t)
            hs[len(steps) - 1 - k if self.reverse else k] = h_t
            if batch < full:  # the other rows keep their state
                h_t = chainerx.concatenate((h_t, h[batch:]))
                c_t = chainerx.concatenate((c_t, c[batch:]))
            h, c = h_t, c_t
        return chainerx.concatenate(hs), h, c

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        inputs = self.get_retained_inputs()
        if config.enable_backprop:
            # The gradient will be differentiated again: take it from the cell made of
            # differentiable functions.
            return differentiate(self._composed, inputs, indexes, grad_outputs)
        grads = self._gradient_arrays(inputs, grad_outputs, 3 in indexes)
        return tuple(Variable(grads[i], requires_grad=False) for i in indexes)

    def _composed(self, x_gates, h0, c0, W_h) -> tuple:
        hs, (hy, cy) = _composed_lstm(x_gates, (h0, c0), W_h, None, self.batches, self.reverse)
        return hs, hy, cy

    def _gradient_arrays(self, inputs: tuple, grad_outputs: tuple, with_W_h: bool) -> tuple:
        x_gates, h0, c0, W_h = (x.array for x in inputs)
        g_hs, g_hy, g_cy = (None if g is None else g.array for g in grad_outputs)
        xp = backend.get_array_module(x_gates)
        act, h_prev, c_prev, tanh_c = self._saved
        slopes = _slopes(xp, act, c_prev, tanh_c)
        f = act[:, 1]
        # Running gradients of the state; rows [:B_t] belong to step t when it is reached.
        gh = xp.zeros_like(h0) if g_hy is None else g_hy.copy()
        gc = xp.zeros_like(c0) if g_cy is None else g_cy.copy()
        g_gates = xp.empty_like(act)
        for rows, batch in reversed(self._steps()):
            dh = gh[:batch]
            if g_hs is not None:
                dh += g_hs[rows]
            g_cell = dh * slopes[rows, 3]
            g_cell += gc[:batch]
            xp.multiply(g_cell[:, None], slopes[rows, :3], out=g_gates[rows, :3])
            xp.multiply(dh, slopes[rows, 4], out=g_gates[rows, 3])
            xp.multiply(g_cell, f[rows], out=gc[:batch])
            xp.dot(g_gates[rows].reshape(batch, -1), W_h, out=gh[:batch])
        g_gates = g_gates.reshape(x_gates.shape)
        # One GEMM over all steps for the weights (None when they need no gradient).
        g_W_h = g_gates.T.dot(h_prev) if with_W_h else None
        return g_gates, gh, gc, g_W_h


def lstm_recurrence(x_gates, state: tuple, W_h, b_h, batches: list, reverse: bool) -> tuple:
    """The recurrence of n_step_lstm (see ``_n_step_rnn_base``); ``b_h`` must be folded."""
    h0, c0 = state
    hs, hy, cy = LSTMRecurrence(batches, reverse).apply((x_gates, h0, c0, W_h))
    return hs, (hy, cy)
