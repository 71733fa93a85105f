"""``PReLU``: the leaky ReLU whose negative slope is learnt."""

from __future__ import annotations

import typing as tp

from chainer import link, variable
from chainer.functions.activation.prelu import prelu


class PReLU(link.Link):
    """Parametric ReLU (He et al., 2015): wraps :func:`~chainer.functions.prelu`.

    ``y = x`` where ``x >= 0`` and ``y = W x`` elsewhere; ``W`` is broadcast to the input
    from its second axis on (shape ``()`` shares one slope, ``(C,)`` one per channel).

    Args:
        shape: Shape of the slope ``W``.
        init: Initial value of the slope (a scalar or any initializer).

    Attributes:
        W (~chainer.Parameter): The slope.

    Example:
        >>> act = L.PReLU((3,))
        >>> act(-numpy.ones((2, 3), numpy.float32)).array
        array([[-0.25, -0.25, -0.25],
               [-0.25, -0.25, -0.25]], dtype=float32)
    """

    def __init__(self, shape: tuple = (), init: tp.Any = 0.25) -> None:
        super().__init__()
        with self.init_scope():
            self.W = variable.Parameter(init, shape)

    def forward(self, x: tp.Any) -> variable.Variable:
        """Apply the activation to ``x``."""
        return prelu(x, self.W)
