"""``select_item``: pick one element per row (``x[i, t[i]]``)."""

from __future__ import annotations

import numpy

import chainer
from chainer import backend
from chainer._ops.get_item import GetItemGrad
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable

__all__ = ["SelectItem", "select_item"]


def _check_labels(t, n_classes: int) -> None:
    """Raise ``ValueError`` unless every label lies in ``[0, n_classes)``."""
    if not t.size:
        return
    low, high = int(t.min()), int(t.max())
    if low < 0 or high >= n_classes:
        bad = low if low < 0 else high
        raise ValueError(f"t must lie in [0, {n_classes}) (x.shape[1]), got {bad}")


class SelectItem(FunctionNode):
    """``y[i] = x[i, t[i]]`` for a 2-D ``x`` and a 1-D int ``t``."""

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x", "t"))
        x_type, t_type = in_types
        type_check.expect(
            t_type.dtype.kind == "i",
            x_type.ndim == 2,
            t_type.ndim == 1,
            x_type.shape[0] == t_type.shape[0],
        )

    def forward(self, inputs: tuple) -> tuple:
        x, t = inputs
        # Checking costs a host copy on GPUs: there it is left to debug mode.
        if type(t) is numpy.ndarray or chainer.is_debug():
            _check_labels(t, x.shape[1])
        xp = backend.get_array_module(x)
        self._index = (xp.arange(len(t)), t)
        return (x[self._index],)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        x, t = inputs
        if t.device.backend.name == "native" or chainer.is_debug():
            _check_labels(t, x.shape[1])
        return (x[chainerx.arange(len(t), device=x.device), t],)  # differentiated by ChainerX

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        node = self.inputs[0]
        gx = GetItemGrad(self._index, node.shape, node.dtype).apply(grad_outputs)[0]
        return (gx, None)


def select_item(x, t) -> Variable:
    """Select one element of each row of a matrix.

    Args:
        x: Variable or array of shape ``(n, k)``.
        t: Int array (or variable) of shape ``(n,)`` with values in ``[0, k)``.

    Returns:
        A variable of shape ``(n,)`` with ``y[i] = x[i, t[i]]``.

    Example:
        >>> x = np.array([[0, 1, 2], [3, 4, 5]], np.float32)
        >>> t = np.array([0, 2], np.int32)
        >>> F.select_item(x, t).array
        array([0., 5.], dtype=float32)
    """
    return SelectItem().apply((x, t))[0]
