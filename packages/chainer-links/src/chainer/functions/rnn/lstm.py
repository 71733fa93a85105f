"""Long short-term memory unit as an activation function."""

from __future__ import annotations

from chainer import backend
from chainer._ops.get_item import GetItemGrad, get_item
from chainer.function_node import FunctionNode
from chainer.functions.activation._scale_grad import ScaleGrad
from chainer.functions.rnn import _lstm_cell
from chainer.functions.rnn._recompute import GradientNode
from chainer.utils import type_check
from chainer.variable import Variable


class LSTM(FunctionNode):
    """LSTM cell update from ``(c_prev, x)`` to ``(c, h)``; ``x`` may have fewer rows."""

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("c_prev", "x"))
        c_type, x_type = in_types
        type_check.expect(
            c_type.dtype.kind == "f",
            x_type.dtype == c_type.dtype,
            c_type.ndim >= 2,
            x_type.ndim == c_type.ndim,
            x_type.shape[0] <= c_type.shape[0],
            x_type.shape[1] == 4 * c_type.shape[1],
        )
        for i in range(2, type_check.eval(c_type.ndim)):
            type_check.expect(x_type.shape[i] == c_type.shape[i])

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        c_prev, x = inputs
        xp = backend.get_array_module(x)
        a, i, f, o = _lstm_cell.split_gate_arrays(x, 4)
        batch = len(x)
        c, h = _lstm_cell.cell_forward(xp, [(a, i)], o, [f], [c_prev[:batch]])
        if batch < len(c_prev):  # rows without input keep their cell as it was
            c = xp.concatenate((c, c_prev[batch:]))
        return c, h

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return tuple(chainerx.lstm(*inputs))

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        c_prev, x = self.get_retained_inputs()
        return _gradients(c_prev, x, *grad_outputs, indexes)


class LSTMGrad(GradientNode):
    """The gradient of :class:`LSTM` as a node of its own.

    Inputs ``(c_prev, x, c_next, gc, gh)`` (``c_next``, the forward output, is not needed
    but accepted, as Chainer's node takes it); outputs ``(gc_prev, gx)``. Its own backward
    recomputes the gradient from differentiable operations, to any order. Instances are
    callable, as Chainer's old-style ``LSTMGrad`` was.
    """

    def __init__(self) -> None:
        super().__init__(_gradients_of_all_inputs)


def _gradients_of_all_inputs(c_prev, x, c_next, gc, gh) -> tuple:
    return _gradients(c_prev, x, gc, gh, (0, 1))


def _gradients(c_prev: Variable, x: Variable, gc, gh, indexes: tuple) -> tuple:
    """Gradients of LSTM's inputs ``(c_prev, x)`` picked by ``indexes``, as variables."""
    batch = x.shape[0]
    shrunk = batch < c_prev.shape[0]
    head = slice(None, batch)
    c_head = get_item(c_prev, head) if shrunk else c_prev
    gc_head = get_item(gc, head) if shrunk and gc is not None else gc
    a, i, f, o = _lstm_cell.SplitGates(4).apply((x,))
    (ga,), (gi,), go, (gf,), (gc_prev,) = _lstm_cell.cell_backward(
        [(a, i)], o, [f], [c_head], gc_head, gh
    )
    ret = []
    for index in indexes:
        if index == 1:
            ret.append(_lstm_cell.MergeGates().apply((ga, gi, gf, go))[0])
        elif shrunk:
            ret.append(_pad_rows(gc_prev, gc, c_prev))
        else:
            ret.append(gc_prev)
    return tuple(ret)


def _pad_rows(gc_head: Variable, gc, c_prev: Variable) -> Variable:
    """Gradient of all rows of ``c_prev``: ``gc_head`` on top, then what ``gc`` passes through."""
    batch = gc_head.shape[0]
    full = GetItemGrad((slice(None, batch),), c_prev.shape, c_prev.dtype).apply((gc_head,))[0]
    if gc is None:
        return full
    xp = backend.get_array_module(gc.array)
    tail = (xp.arange(gc.shape[0]) >= batch).reshape((-1,) + (1,) * (gc.ndim - 1))
    return full + ScaleGrad(tail).apply((gc,))[0]


def lstm(c_prev, x) -> tuple:
    """Long Short-Term Memory units as an activation function.

    With ``x`` split into four interleaved gates ``a, i, f, o`` along axis 1 (channel
    ``4 * u + k`` is gate ``k`` of unit ``u``), it computes

    .. math::
        c = \\tanh(a) \\sigma(i) + \\sigma(f) c_{prev}, \\qquad h = \\sigma(o) \\tanh(c).

    ``x`` may have fewer rows than ``c_prev`` (sequences of decreasing length in a batch):
    the rows of ``c_prev`` beyond ``len(x)`` are passed through to ``c`` unchanged, and ``h``
    has ``len(x)`` rows.

    Args:
        c_prev: Previous cell state of shape ``(B, H, ...)``, floating-point.
        x: Gate inputs of shape ``(B', 4 * H, ...)`` with ``B' <= B``, of ``c_prev``'s dtype.

    Returns:
        ``(c, h)``: the new cell state (shape of ``c_prev``) and the output
        (shape ``(B', H, ...)``).

    Example:
        >>> c_prev = numpy.zeros((1, 2), numpy.float32)
        >>> x = numpy.ones((1, 8), numpy.float32)
        >>> c, h = F.lstm(c_prev, x)
        >>> c.shape, h.shape
        ((1, 2), (1, 2))
    """
    return LSTM().apply((c_prev, x))
