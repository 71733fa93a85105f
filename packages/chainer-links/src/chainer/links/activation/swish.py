"""``Swish``: the activation ``x * sigmoid(beta * x)`` with a learnt ``beta``."""

from __future__ import annotations

import typing as tp

from chainer import link, variable
from chainer.functions.activation.swish import swish


class Swish(link.Link):
    """Swish activation (Ramachandran et al., 2017): wraps :func:`~chainer.functions.swish`.

    ``y = x * sigmoid(beta * x)``; ``beta`` is broadcast to the input from its second axis on.

    Args:
        beta_shape: Shape of ``beta``; ``None`` reads it from the first input: one value per
            element of a sample, ``x.shape[1:]`` (as in Chainer).
        beta_init: Initial value of ``beta`` (a scalar or any initializer).

    Attributes:
        beta (~chainer.Parameter): The parameter ``beta``.

    Example:
        >>> act = L.Swish(None)
        >>> act(numpy.zeros((2, 3, 4), numpy.float32)).shape, act.beta.shape
        ((2, 3, 4), (3, 4))
    """

    def __init__(self, beta_shape: tp.Any, beta_init: tp.Any = 1.0) -> None:
        super().__init__()
        with self.init_scope():
            self.beta = variable.Parameter(beta_init, beta_shape)

    def forward(self, x: tp.Any) -> variable.Variable:
        """Apply the activation to ``x`` of shape ``(n, channels, ...)``."""
        if self.beta.array is None:
            self.beta.initialize(x.shape[1:])
        return swish(x, self.beta)
