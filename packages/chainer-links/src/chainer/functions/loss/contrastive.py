"""Contrastive loss: pull similar pairs together, push dissimilar ones past a margin."""

from __future__ import annotations

from chainer import backend
from chainer._ops import array_ops
from chainer.function_node import FunctionNode
from chainer.functions.loss import _checks
from chainer.utils import force_array, type_check
from chainer.variable import Variable

# Below this distance a pair counts as coincident (no direction to push it along).
_MIN_DISTANCE = 1e-7


class Contrastive(FunctionNode):
    """``(y d^2 + (1 - y) max(0, margin - d)^2) / 2`` with ``d = ||x0 - x1||`` per row."""

    def __init__(self, margin: float = 1, reduce: str = "mean") -> None:
        if not margin > 0:
            raise ValueError(f"margin should be positive, got {margin!r}")
        _checks.check_reduce(reduce, ("mean", "no"))
        self.margin = float(margin)
        self.reduce = reduce

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x0", "x1", "y"))
        x0_type, x1_type, y_type = in_types
        type_check.expect(
            x0_type.dtype.kind == "f",
            x0_type.dtype == x1_type.dtype,
            y_type.dtype.kind == "i",
            x0_type.shape == x1_type.shape,
            x1_type.shape[0] == y_type.shape[0],
            x1_type.shape[0] > 0,
            x0_type.ndim == 2,
            y_type.ndim == 1,
        )

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        x0, x1, y = inputs
        xp = backend.get_array_module(x0)
        diff = x0 - x1
        dist_sq = (diff * diff).sum(axis=1)
        dist = xp.sqrt(dist_sq)
        gap = xp.maximum(self.margin - dist, 0)
        self._similar = y.astype(x0.dtype)
        loss = (self._similar * dist_sq + (1 - self._similar) * gap * gap) * 0.5
        if self.reduce == "mean":
            return (xp.asarray(loss.sum() / len(x0), dtype=x0.dtype),)
        return (force_array(loss, x0.dtype),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        x0, x1, y = inputs
        diff = x0 - x1
        dist_sq = (diff * diff).sum(axis=1)
        # As backward below: below _MIN_DISTANCE the root sees 1 (a finite slope) and the
        # margin term a distance of 0.
        tiny = (chainerx.sqrt(dist_sq) < _MIN_DISTANCE).astype(x0.dtype)
        dist = chainerx.sqrt(dist_sq + tiny) * (1 - tiny)
        gap = chainerx.maximum(self.margin - dist, 0)
        similar = y.astype(x0.dtype)
        loss = (similar * dist_sq + (1 - similar) * gap * gap) * 0.5
        if self.reduce == "mean":
            return ((loss.sum() * (1.0 / len(x0))).astype(x0.dtype),)
        return (loss,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x0, x1 = self.get_retained_inputs()
        xp = x0.xp
        gy = grad_outputs[0]
        gy = gy * (1.0 / len(x0)) if self.reduce == "mean" else array_ops.reshape(gy, (-1, 1))
        diff = x0 - x1
        dist_sq = array_ops.sum(diff * diff, axis=1, keepdims=True)
        dist_arr = xp.sqrt(dist_sq.array)
        # Where the margin is met (or the pair is similar) no push applies: a constant mask.
        pushed = ((self.margin - dist_arr > 0) & (self._similar[:, None] == 0)).astype(x0.dtype)
        # sqrt through the variable keeps the push differentiable. Below _MIN_DISTANCE the
        # distance is taken as 1 in the direction diff / d (so it stays finite in float16,
        # where tiny squares underflow) and as 0 in the margin term.
        tiny = (dist_arr < _MIN_DISTANCE).astype(x0.dtype)
        dist = (dist_sq + tiny) ** 0.5
        similar = Variable(self._similar[:, None], requires_grad=False)
        push = (self.margin - dist * (1 - tiny)) * (diff / dist) * pushed
        gx0 = (similar * diff - push) * gy
        return tuple([gx0 if i == 0 else -gx0 for i in indexes])


def contrastive(x0, x1, y, margin: float = 1, reduce: str = "mean") -> Variable:
    """Contrastive loss of pairs of embeddings.

    With ``d = ||x0[i] - x1[i]||``, pair ``i`` costs ``d^2 / 2`` when similar (``y[i] = 1``)
    and ``max(0, margin - d)^2 / 2`` when dissimilar (``y[i] = 0``).

    Args:
        x0: First embeddings, shape ``(N, K)``, float (``N > 0``).
        x1: Second embeddings, the shape and dtype of ``x0``.
        y: Integer labels of shape ``(N,)``: 1 for similar pairs, 0 for dissimilar ones.
        margin: Positive distance beyond which dissimilar pairs cost nothing.
        reduce: ``'mean'`` for the mean over pairs, ``'no'`` for one loss per pair.

    Returns:
        A scalar variable or one of shape ``(N,)``, with the dtype of ``x0``.

    Example:
        >>> x0 = numpy.array([[0.0, 0.0], [0.0, 0.0]], numpy.float32)
        >>> x1 = numpy.array([[0.6, 0.8], [0.3, 0.4]], numpy.float32)
        >>> F.contrastive(x0, x1, numpy.array([1, 0], numpy.int32), reduce='no').array
        array([0.5  , 0.125], dtype=float32)
    """
    return Contrastive(margin, reduce).apply((x0, x1, y))[0]
