"""Child-sum TreeLSTM unit: an LSTM cell merging any number of child cells."""

from __future__ import annotations

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.rnn import _lstm_cell
from chainer.utils import type_check


class TreeLSTM(FunctionNode):
    """TreeLSTM cell update from ``(c_1, ..., c_n, x)`` to ``(c, h)``."""

    def check_type_forward(self, in_types) -> None:
        type_check.expect(in_types.size() >= 2)
        n_in = type_check.eval(in_types.size())
        type_check.argname(in_types, tuple(f"c{k}" for k in range(1, n_in)) + ("x",))
        c_types = in_types[:-1]
        x_type = in_types[-1]
        n_children = len(c_types)
        type_check.expect(x_type.ndim >= 2)
        for c_type in c_types:
            type_check.expect(
                c_type.dtype.kind == "f",
                x_type.dtype == c_type.dtype,
                c_type.shape[0] == x_type.shape[0],
                x_type.ndim == c_type.ndim,
                x_type.shape[1] == (3 + n_children) * c_type.shape[1],
            )
            for i in range(2, type_check.eval(x_type.ndim)):
                type_check.expect(x_type.shape[i] == c_type.shape[i])

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs(tuple(range(len(inputs))))
        cs, x = inputs[:-1], inputs[-1]
        xp = backend.get_array_module(x)
        a, i, o, *fs = _lstm_cell.split_gate_arrays(x, 3 + len(cs), blocked=True)
        return _lstm_cell.cell_forward(xp, [(a, i)], o, fs, cs)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return tuple(chainerx.tree_lstm(*inputs))

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        inputs = self.get_retained_inputs()
        cs, x = inputs[:-1], inputs[-1]
        gc, gh = grad_outputs
        a, i, o, *fs = _lstm_cell.SplitGates(3 + len(cs), blocked=True).apply((x,))
        (ga,), (gi,), go, gfs, gcs = _lstm_cell.cell_backward([(a, i)], o, fs, cs, gc, gh)
        ret = []
        for index in indexes:
            if index < len(cs):
                ret.append(gcs[index])
            else:
                ret.append(_lstm_cell.MergeGates(blocked=True).apply((ga, gi, go, *gfs))[0])
        return tuple(ret)


def tree_lstm(*inputs) -> tuple:
    """TreeLSTM unit as an activation function (Tai et al., 2015), for ``n`` children.

    The last input ``x`` is split into ``3 + n`` gates ``a, i, o, f_1 .. f_n`` laid out in
    blocks along axis 1 (channel ``k * H + u`` is gate ``k`` of unit ``u``); the cell is

    .. math::
        c = \\tanh(a) \\sigma(i) + \\sum_k \\sigma(f_k) c_k, \\qquad h = \\sigma(o) \\tanh(c).

    Args:
        inputs: The children's cell states ``c_1, ..., c_n`` (each of shape ``(B, H, ...)``,
            floating-point), then the gate inputs ``x`` of shape ``(B, (3 + n) * H, ...)``.

    Returns:
        ``(c, h)``: the new cell state and the output, both of shape ``(B, H, ...)``.

    Example:
        >>> c1 = c2 = numpy.zeros((1, 2), numpy.float32)
        >>> x = numpy.ones((1, 10), numpy.float32)
        >>> c, h = F.tree_lstm(c1, c2, x)
        >>> c.shape
        (1, 2)
    """
    return TreeLSTM().apply(inputs)
