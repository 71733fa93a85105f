"""``Bias``: a link that adds a learnt or given bias, broadcast from an axis."""

from __future__ import annotations

import typing as tp

from chainer import link, variable
from chainer.functions.math.bias import bias
from chainer.links._weights import split_operand


class Bias(link.Link):
    """Broadcasted elementwise summation with a bias: wraps :func:`~chainer.functions.bias`.

    ``y`` (the learnt ``b`` or the second input) is broadcast to ``x`` from axis ``axis`` on:
    its shape must equal ``x.shape[axis:axis + y.ndim]``.

    Args:
        axis: The first axis of ``x`` along which the bias is applied.
        shape: Shape of the learnt bias ``b`` (zeros at first). With ``None`` the link learns
            nothing and the bias is given as the second argument of each call.

    Example:
        >>> add = L.Bias(axis=1, shape=(3,))
        >>> add(numpy.ones((2, 3, 4), numpy.float32)).shape
        (2, 3, 4)
    """

    def __init__(self, axis: int = 1, shape: tp.Any = None) -> None:
        super().__init__()
        if shape is not None:
            with self.init_scope():
                self.b = variable.Parameter(0, shape)
        self.axis = axis

    def forward(self, *xs: tp.Any) -> variable.Variable:
        """``forward(x)`` adds the learnt ``b``; without one, ``forward(x, y)`` adds ``y``.

        Raises:
            InvalidArgumentError: (a ``ValueError`` and, as in Chainer, an
                ``AssertionError``) one input while no bias is learnt, or not one input
                while one is.
        """
        x, b = split_operand(self, "b", xs)
        return bias(x, b, self.axis)
