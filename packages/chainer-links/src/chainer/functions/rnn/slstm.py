"""S-LSTM unit: an LSTM cell merging two child cells (for binary trees)."""

from __future__ import annotations

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.rnn import _lstm_cell
from chainer.functions.rnn._recompute import GradientNode
from chainer.utils import type_check


class SLSTM(FunctionNode):
    """S-LSTM cell update from ``(c_prev1, c_prev2, x1, x2)`` to ``(c, h)``."""

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("c_prev1", "c_prev2", "x1", "x2"))
        c1_type, c2_type, x1_type, x2_type = in_types
        type_check.expect(
            c1_type.dtype.kind == "f",
            c2_type.dtype == c1_type.dtype,
            x1_type.dtype == c1_type.dtype,
            x2_type.dtype == c1_type.dtype,
            c1_type.ndim >= 2,
            c2_type.shape == c1_type.shape,
            x1_type.shape == x2_type.shape,
            x1_type.ndim == c1_type.ndim,
            x1_type.shape[0] == c1_type.shape[0],
            x1_type.shape[1] == 4 * c1_type.shape[1],
        )
        for i in range(2, type_check.eval(c1_type.ndim)):
            type_check.expect(x1_type.shape[i] == c1_type.shape[i])

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1, 2, 3))
        c_prev1, c_prev2, x1, x2 = inputs
        xp = backend.get_array_module(x1)
        a1, i1, f1, o1 = _lstm_cell.split_gate_arrays(x1, 4)
        a2, i2, f2, o2 = _lstm_cell.split_gate_arrays(x2, 4)
        return _lstm_cell.cell_forward(
            xp, [(a1, i1), (a2, i2)], o1 + o2, [f1, f2], [c_prev1, c_prev2]
        )

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return tuple(chainerx.slstm(*inputs))

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return _gradients(*self.get_retained_inputs(), *grad_outputs, indexes)


class SLSTMGrad(GradientNode):
    """The gradient of :class:`SLSTM` as a node of its own.

    Inputs ``(c_prev1, c_prev2, x1, x2, c_next, gc, gh)`` (``c_next`` is accepted but not
    needed); outputs ``(gc_prev1, gc_prev2, gx1, gx2)``, differentiable to any order.
    Instances are callable, as Chainer's old-style ``SLSTMGrad`` was.
    """

    def __init__(self) -> None:
        super().__init__(_gradients_of_all_inputs)


def _gradients_of_all_inputs(c_prev1, c_prev2, x1, x2, c_next, gc, gh) -> tuple:
    return _gradients(c_prev1, c_prev2, x1, x2, gc, gh, (0, 1, 2, 3))


def _gradients(c_prev1, c_prev2, x1, x2, gc, gh, indexes: tuple) -> tuple:
    """Gradients of S-LSTM's inputs picked by ``indexes``, as variables."""
    a1, i1, f1, o1 = _lstm_cell.SplitGates(4).apply((x1,))
    a2, i2, f2, o2 = _lstm_cell.SplitGates(4).apply((x2,))
    (ga1, ga2), (gi1, gi2), go, gfs, gcs = _lstm_cell.cell_backward(
        [(a1, i1), (a2, i2)], o1 + o2, [f1, f2], [c_prev1, c_prev2], gc, gh
    )
    merged = {2: (ga1, gi1, gfs[0], go), 3: (ga2, gi2, gfs[1], go)}
    return tuple(
        gcs[index] if index < 2 else _lstm_cell.MergeGates().apply(merged[index])[0]
        for index in indexes
    )


def slstm(c_prev1, c_prev2, x1, x2) -> tuple:
    """S-LSTM units as an activation function (Zhu et al., 2015).

    Each of ``x1`` and ``x2`` is split into four interleaved gates ``a, i, f, o`` along axis 1
    (channel ``4 * u + k`` is gate ``k`` of unit ``u``); the cell merges two children:

    .. math::
        c = \\tanh(a_1) \\sigma(i_1) + \\tanh(a_2) \\sigma(i_2)
            + \\sigma(f_1) c_1 + \\sigma(f_2) c_2,
        \\qquad h = \\sigma(o_1 + o_2) \\tanh(c).

    Each child's input gate scales its own cell input, as in Chainer's implementation (and so
    in the models trained with it).

    Args:
        c_prev1: Cell state of the first child, shape ``(B, H, ...)``, floating-point.
        c_prev2: Cell state of the second child, same shape and dtype.
        x1: Gate inputs from the first child, shape ``(B, 4 * H, ...)``.
        x2: Gate inputs from the second child, same shape as ``x1``.

    Returns:
        ``(c, h)``: the new cell state and the output, both of ``c_prev1``'s shape.

    Example:
        >>> c = numpy.zeros((1, 2), numpy.float32)
        >>> x = numpy.ones((1, 8), numpy.float32)
        >>> c, h = F.slstm(c, c, x, x)
        >>> h.shape
        (1, 2)
    """
    return SLSTM().apply((c_prev1, c_prev2, x1, x2))
