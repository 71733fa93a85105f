"""Huber loss: squared error near zero, absolute error (linear) beyond ``delta``."""

from __future__ import annotations

from chainer import backend
from chainer._ops import array_ops
from chainer.function_node import FunctionNode
from chainer.functions.loss import _checks
from chainer.utils import force_array, type_check
from chainer.variable import Variable


class HuberLoss(FunctionNode):
    """Elementwise Huber loss of ``x - t``, optionally summed along axis 1."""

    def __init__(self, delta: float, reduce: str = "sum_along_second_axis") -> None:
        _checks.check_reduce(reduce, ("sum_along_second_axis", "no"))
        if not delta > 0:
            raise ValueError(f"delta must be positive, got {delta!r}")
        self.delta = float(delta)
        self.reduce = reduce

    def check_type_forward(self, in_types) -> None:
        _checks.expect_matching_floats(in_types, ("x", "t"))
        if self.reduce == "sum_along_second_axis":
            type_check.expect(in_types[0].ndim >= 2)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        x, t = inputs
        xp = backend.get_array_module(x)
        diff = x - t
        magnitude = abs(diff)
        delta = self.delta
        # The slope clip(diff, -delta, delta) is linear in diff inside, constant outside.
        self._inside = (magnitude <= delta).astype(x.dtype)
        self._outside_slope = xp.sign(diff) * (1 - self._inside) * x.dtype.type(delta)
        loss = xp.where(magnitude <= delta, 0.5 * diff * diff, delta * (magnitude - 0.5 * delta))
        if self.reduce == "sum_along_second_axis":
            loss = loss.sum(axis=1)
        return (force_array(loss, x.dtype),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        loss = chainerx.huber_loss(*inputs, self.delta)
        return (loss.sum(axis=1) if self.reduce == "sum_along_second_axis" else loss,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x, t = self.get_retained_inputs()
        gy = grad_outputs[0]
        if self.reduce == "sum_along_second_axis":
            gy = array_ops.expand_dims(gy, 1)
        slope = (x - t) * self._inside + self._outside_slope
        gx = slope * gy
        return tuple([gx if i == 0 else -gx for i in indexes])


def huber_loss(x, t, delta: float, reduce: str = "sum_along_second_axis") -> Variable:
    """Huber loss of the difference ``d = x - t``.

    Each element gives ``d^2 / 2`` where ``|d| <= delta`` and ``delta * (|d| - delta / 2)``
    elsewhere: it is smooth like squared error and robust to outliers like absolute error.

    Args:
        x: Float variable or array of shape ``(N, K, ...)``.
        t: Variable or array of the shape and dtype of ``x``.
        delta: Positive threshold between the quadratic and the linear parts.
        reduce: ``'sum_along_second_axis'`` sums over axis 1 (the result has shape
            ``(N, ...)``); ``'no'`` keeps the elementwise losses.

    Returns:
        A variable of the dtype of ``x``.

    Example:
        >>> x = numpy.array([[0.5, 3.0]], numpy.float32)
        >>> F.huber_loss(x, numpy.zeros_like(x), delta=1.0).array
        array([2.625], dtype=float32)
    """
    return HuberLoss(delta, reduce).apply((x, t))[0]
