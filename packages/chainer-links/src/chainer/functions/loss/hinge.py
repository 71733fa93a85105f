"""Hinge loss for one-of-many classification (one-vs-rest margins)."""

from __future__ import annotations

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.loss import _checks
from chainer.utils import force_array, type_check
from chainer.variable import Variable


class Hinge(FunctionNode):
    """``max(0, 1 - x[i, t_i])`` for the label, ``max(0, 1 + x[i, j])`` for other classes."""

    def __init__(self, norm: str = "L1", reduce: str = "mean") -> None:
        if norm not in ("L1", "L2"):
            raise NotImplementedError(f"norm should be either 'L1' or 'L2', got {norm!r}")
        _checks.check_reduce(reduce, ("mean", "no"))
        self.norm = norm
        self.reduce = reduce

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x", "t"))
        x_type, t_type = in_types
        type_check.expect(
            x_type.dtype.kind == "f",
            t_type.dtype.kind == "i",
            x_type.ndim == 2,
            t_type.ndim == 1,
            x_type.shape[0] == t_type.shape[0],
        )

    def forward(self, inputs: tuple) -> tuple:
        x, t = inputs
        xp = backend.get_array_module(x)
        _checks.check_labels(t, x.shape[1])
        self.retain_inputs((0,))
        # sign is -1 at the label and +1 elsewhere: every margin is max(0, 1 + sign * x).
        sign = xp.ones_like(x)
        sign[xp.arange(len(x)), t] = -1
        margin = 1 + sign * x
        self._sign = sign
        self._active = (margin > 0).astype(x.dtype)
        loss = margin * self._active
        if self.norm == "L2":
            loss = loss * loss
        if self.reduce == "mean":
            return (xp.asarray(loss.sum() / max(len(x), 1), dtype=x.dtype),)
        return (force_array(loss, x.dtype),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        x, t = inputs
        if x.device.backend.name == "native" or chainer.is_debug():  # a sync elsewhere
            _checks.check_labels(chainerx.to_numpy(t), x.shape[1])
        classes = chainerx.arange(x.shape[1], dtype=t.dtype, device=x.device)
        # -1 at the label and +1 elsewhere: every margin is max(0, 1 + sign * x).
        sign = 1 - 2 * (t[:, None] == classes).astype(x.dtype)
        loss = chainerx.maximum(1 + sign * x, 0)
        if self.norm == "L2":
            loss = loss * loss
        if self.reduce == "mean":
            return ((loss.sum() * (1.0 / max(len(x), 1))).astype(x.dtype),)
        return (loss,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        gy = grad_outputs[0]
        if self.reduce == "mean":
            gy = gy * (1.0 / max(len(self._sign), 1))
        slope = Variable(self._sign * self._active, requires_grad=False)
        if self.norm == "L2":  # d/dx margin^2 = 2 * margin * sign, and margin depends on x
            x = self.get_retained_inputs()[0]
            slope = 2 * slope * (1 + Variable(self._sign, requires_grad=False) * x)
        return (slope * gy, None)


def hinge(x, t, norm: str = "L1", reduce: str = "mean") -> Variable:
    """Hinge loss of scores ``x`` for the labels ``t``, one-vs-rest.

    The loss of row ``i`` and class ``j`` is ``max(0, 1 - x[i, j])`` when ``j == t[i]`` and
    ``max(0, 1 + x[i, j])`` otherwise, squared for the L2 norm.

    Args:
        x: Scores of shape ``(N, K)``, float.
        t: Integer labels of shape ``(N,)`` in ``[0, K)``.
        norm: ``'L1'`` or ``'L2'``.
        reduce: ``'mean'`` for the sum divided by ``N``, ``'no'`` for the ``(N, K)`` losses.

    Returns:
        A scalar variable or one of shape ``(N, K)``, with the dtype of ``x``.

    Example:
        >>> x = numpy.array([[2.0, -0.5], [0.5, 0.0]], numpy.float32)
        >>> t = numpy.array([0, 1], numpy.int32)
        >>> F.hinge(x, t).array
        array(1.5, dtype=float32)
    """
    return Hinge(norm, reduce).apply((x, t))[0]
