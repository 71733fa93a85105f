"""Triplet loss: an anchor should be nearer its positive than its negative by a margin."""

from __future__ import annotations

from chainer import backend
from chainer._ops import array_ops
from chainer.function_node import FunctionNode
from chainer.functions.loss import _checks
from chainer.utils import force_array, type_check
from chainer.variable import Variable


class Triplet(FunctionNode):
    """``max(0, ||a - p||^2 - ||a - n||^2 + margin)`` per row."""

    def __init__(self, margin: float = 0.2, reduce: str = "mean") -> None:
        if not margin > 0:
            raise ValueError(f"margin should be positive, got {margin!r}")
        _checks.check_reduce(reduce, ("mean", "no"))
        self.margin = float(margin)
        self.reduce = reduce

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("anchor", "positive", "negative"))
        a_type, p_type, n_type = in_types
        type_check.expect(
            a_type.dtype.kind == "f",
            a_type.dtype == p_type.dtype,
            a_type.dtype == n_type.dtype,
            a_type.shape == p_type.shape,
            a_type.shape == n_type.shape,
            a_type.shape[0] > 0,
            a_type.ndim == 2,
        )

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1, 2))
        anchor, positive, negative = inputs
        xp = backend.get_array_module(anchor)
        to_pos = anchor - positive
        to_neg = anchor - negative
        gap = (to_pos * to_pos - to_neg * to_neg).sum(axis=1) + self.margin
        self._active = (gap > 0).astype(anchor.dtype)[:, None]
        loss = gap * self._active[:, 0]
        if self.reduce == "mean":
            return (xp.asarray(loss.sum() / len(anchor), dtype=anchor.dtype),)
        return (force_array(loss, anchor.dtype),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        anchor, positive, negative = inputs
        to_pos, to_neg = anchor - positive, anchor - negative
        gap = (to_pos * to_pos - to_neg * to_neg).sum(axis=1) + self.margin
        loss = chainerx.maximum(gap, 0)
        if self.reduce == "mean":
            return ((loss.sum() * (1.0 / len(anchor))).astype(anchor.dtype),)
        return (loss,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        anchor, positive, negative = self.get_retained_inputs()
        gy = grad_outputs[0]
        if self.reduce == "mean":
            gy = gy * (2.0 / len(anchor))
        else:
            gy = array_ops.reshape(gy, (-1, 1)) * 2.0
        g = Variable(self._active, requires_grad=False) * gy
        grads = {
            0: lambda: g * (negative - positive),
            1: lambda: g * (positive - anchor),
            2: lambda: g * (anchor - negative),
        }
        return tuple([grads[i]() for i in indexes])


def triplet(anchor, positive, negative, margin: float = 0.2, reduce: str = "mean") -> Variable:
    """Triplet loss of embeddings.

    Row ``i`` costs ``max(0, ||a_i - p_i||^2 - ||a_i - n_i||^2 + margin)``.

    Args:
        anchor: Anchor embeddings, shape ``(N, K)``, float (``N > 0``).
        positive: Embeddings of the same class as the anchors (shape and dtype of ``anchor``).
        negative: Embeddings of other classes (shape and dtype of ``anchor``).
        margin: Positive margin between the squared distances.
        reduce: ``'mean'`` for the mean over rows, ``'no'`` for one loss per row.

    Returns:
        A scalar variable or one of shape ``(N,)``, with the dtype of ``anchor``.

    Example:
        >>> a = numpy.array([[0.0, 0.0]], numpy.float32)
        >>> p = numpy.array([[1.0, 0.0]], numpy.float32)
        >>> n = numpy.array([[0.0, 1.0]], numpy.float32)
        >>> F.triplet(a, p, n, margin=0.5).array
        array(0.5, dtype=float32)
    """
    return Triplet(margin, reduce).apply((anchor, positive, negative))[0]
