"""Sigmoid cross entropy: the binary classification loss on scores before the sigmoid."""

from __future__ import annotations

from chainer import backend
from chainer._ops import array_ops
from chainer.function_node import FunctionNode
from chainer.functions.activation.sigmoid import sigmoid, sigmoid_array
from chainer.functions.loss import _checks
from chainer.utils import force_array, type_check
from chainer.variable import Variable


class SigmoidCrossEntropy(FunctionNode):
    """Cross entropy of ``sigmoid(x)`` against 0/1 labels ``t`` (-1 is ignored)."""

    ignore_label = -1

    def __init__(self, normalize: bool = True, reduce: str = "mean") -> None:
        _checks.check_reduce(reduce, ("mean", "no"))
        self.normalize = normalize
        self.reduce = reduce
        self.count = 1

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x", "t"))
        x_type, t_type = in_types
        type_check.expect(
            x_type.dtype.kind == "f",
            t_type.dtype.kind == "i",
            x_type.shape == t_type.shape,
        )

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0,))
        x, t = inputs
        xp = backend.get_array_module(x)
        # Float labels: mixing float and int arrays would promote the arithmetic to float64.
        self.t = t.astype(x.dtype)
        self.mask = force_array((t != self.ignore_label).astype(x.dtype))
        # -log p(t | x) = log(1 + exp(x)) - t * x, written so that exp never overflows:
        # log(1 + exp(x)) = max(x, 0) + log1p(exp(-|x|)).
        loss = xp.maximum(x, 0) - x * self.t + xp.log1p(xp.exp(-abs(x)))
        loss *= self.mask
        if self.reduce == "no":
            return (force_array(loss, x.dtype),)
        batch = x.shape[0] if x.ndim else 1
        self.count = max(int(self.mask.sum()), 1) if self.normalize else max(batch, 1)
        return (xp.asarray(loss.sum(dtype=_accumulator(x.dtype)) / self.count, dtype=x.dtype),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        x, t = inputs
        loss = chainerx.sigmoid_cross_entropy(x, t)  # ignores the label -1
        if self.reduce == "no":
            return (loss,)
        batch = x.shape[0] if x.ndim else 1
        self.count = (
            max(int((t != self.ignore_label).sum()), 1) if self.normalize else max(batch, 1)
        )
        total = loss.astype(_accumulator(x.dtype)).sum()
        return ((total * (1.0 / self.count)).astype(x.dtype),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x = self.get_retained_inputs()[0]
        gx = SigmoidCrossEntropyGrad(self).apply((x, grad_outputs[0]))[0]
        return (gx,) if len(indexes) == 1 else (gx, None)


class SigmoidCrossEntropyGrad(FunctionNode):
    """``(sigmoid(x) - t) * mask * gy / count``, differentiable in ``x`` and ``gy``."""

    def __init__(self, loss: SigmoidCrossEntropy) -> None:
        self.loss = loss

    def _scale(self, gy):
        return gy * (1.0 / self.loss.count) if self.loss.reduce == "mean" else gy

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        x, gy = inputs
        loss = self.loss
        gx = sigmoid_array(backend.get_array_module(x), x) - loss.t
        gx *= loss.mask
        gx *= self._scale(gy)
        return (force_array(gx, x.dtype),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x, gy = self.get_retained_inputs()
        loss = self.loss
        ggx = grad_outputs[0] * Variable(loss.mask, requires_grad=False)
        y = sigmoid(x)
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(ggx * y * (1 - y) * self._scale(gy))
            else:
                g = ggx * (y - Variable(loss.t, requires_grad=False))
                if loss.reduce == "mean":
                    g = array_ops.sum(g) * (1.0 / loss.count)
                ret.append(g)
        return tuple(ret)


def _accumulator(dtype):
    # float16 sums lose integers past 2048; accumulate in float32 instead.
    return "float32" if dtype.itemsize < 4 else dtype


def sigmoid_cross_entropy(x, t, normalize: bool = True, reduce: str = "mean") -> Variable:
    """Cross entropy between ``sigmoid(x)`` and binary labels ``t``.

    Each element contributes ``-(t * log(sigmoid(x)) + (1 - t) * log(1 - sigmoid(x)))``,
    computed stably from ``x``; elements labelled ``-1`` contribute zero.

    Args:
        x: Scores before the sigmoid, float, any shape ``(N, ...)``.
        t: Integer labels of the shape of ``x``: 0, 1, or -1 to ignore the element.
        normalize: With ``reduce='mean'``, divide the sum by the number of non-ignored
            elements (True) or by ``N`` (False).
        reduce: ``'mean'`` for a scalar loss, ``'no'`` for the elementwise losses.

    Returns:
        A scalar variable (``'mean'``) or one of the shape of ``x`` (``'no'``).

    Example:
        >>> x = numpy.array([[2.0, -1.0], [0.0, 3.0]], numpy.float32)
        >>> t = numpy.array([[1, 0], [1, -1]], numpy.int32)
        >>> F.sigmoid_cross_entropy(x, t).array
        array(0.37777892, dtype=float32)
    """
    return SigmoidCrossEntropy(normalize, reduce).apply((x, t))[0]
