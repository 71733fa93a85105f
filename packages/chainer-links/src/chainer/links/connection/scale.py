"""``Scale``: a link that multiplies by a learnt or given scale, broadcast from an axis."""

from __future__ import annotations

import typing as tp

from chainer import link, variable
from chainer.functions.math.scale import scale
from chainer.links._weights import split_operand
from chainer.links.connection.bias import Bias


class Scale(link.Chain):
    """Broadcasted elementwise product with a scale: wraps :func:`~chainer.functions.scale`.

    ``y`` (the learnt ``W`` or the second input) is broadcast to ``x`` from axis ``axis`` on,
    and a learnt bias (child link ``bias``) may be added after the product.

    Args:
        axis: The first axis of ``x`` along which the scale is applied.
        W_shape: Shape of the learnt scale ``W`` (ones at first). With ``None`` the scale is
            given as the second argument of each call.
        bias_term: Also learn a bias added after scaling.
        bias_shape: Shape of the bias when ``W_shape`` is ``None`` (otherwise ``W_shape``).

    Raises:
        ValueError: ``bias_term`` without ``W_shape`` nor ``bias_shape``.

    Example:
        >>> mul = L.Scale(axis=1, W_shape=(3,), bias_term=True)
        >>> mul(numpy.ones((2, 3), numpy.float32)).shape
        (2, 3)
    """

    def __init__(
        self,
        axis: int = 1,
        W_shape: tp.Any = None,
        bias_term: bool = False,
        bias_shape: tp.Any = None,
    ) -> None:
        super().__init__()
        self.axis = axis
        if bias_term and W_shape is None and bias_shape is None:
            raise ValueError(
                "bias_shape should be given if W is not learnt parameter and bias_term is True"
            )
        with self.init_scope():
            if W_shape is not None:
                self.W = variable.Parameter(1, W_shape)
            if bias_term:
                self.bias = Bias(axis, W_shape if W_shape is not None else bias_shape)

    def forward(self, *xs: tp.Any) -> variable.Variable:
        """``forward(x)`` scales by the learnt ``W``; without one, ``forward(x, y)`` by ``y``.

        Raises:
            InvalidArgumentError: (a ``ValueError`` and, as in Chainer, an
                ``AssertionError``) one input while no ``W`` is learnt, or not one input
                while it is.
        """
        x, W = split_operand(self, "W", xs)
        z = scale(x, W, self.axis)
        if hasattr(self, "bias"):
            return self.bias(z)
        return z
