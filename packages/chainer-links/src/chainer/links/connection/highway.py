"""``Highway``: a layer that mixes a transformation of its input with the input itself."""

from __future__ import annotations

import typing as tp
from collections.abc import Callable

from chainer import link, variable
from chainer.functions.activation.relu import relu
from chainer.functions.activation.sigmoid import sigmoid
from chainer.links.connection.linear import Linear


class Highway(link.Chain):
    """Highway module (Srivastava et al., 2015).

    ``y = activate(x W_h + b_h) * T + x * (1 - T)`` with the transform gate
    ``T = sigmoid(x W_t + b_t)``. The gate bias starts negative (``-1``), so the layer starts
    close to the identity.

    Args:
        in_out_size: Dimension of the input and output vectors.
        nobias: Do not use the biases ``b_h`` and ``b_t``.
        activate: Activation of the plain path.
        init_Wh: Initializer of ``W_h`` (``plain.W``); ``None`` means LeCunNormal.
        init_Wt: Initializer of ``W_t`` (``transform.W``); ``None`` means LeCunNormal.
        init_bh: Initializer of ``b_h`` (``plain.b``); ``None`` means zeros.
        init_bt: Initializer of ``b_t`` (``transform.b``).

    Example:
        >>> layer = L.Highway(4)
        >>> layer(numpy.ones((2, 4), numpy.float32)).shape
        (2, 4)
    """

    def __init__(
        self,
        in_out_size: int,
        nobias: bool = False,
        activate: Callable = relu,
        init_Wh: tp.Any = None,
        init_Wt: tp.Any = None,
        init_bh: tp.Any = None,
        init_bt: tp.Any = -1,
    ) -> None:
        super().__init__()
        self.activate = activate
        with self.init_scope():
            self.plain = Linear(
                in_out_size, in_out_size, nobias=nobias, initialW=init_Wh, initial_bias=init_bh
            )
            self.transform = Linear(
                in_out_size, in_out_size, nobias=nobias, initialW=init_Wt, initial_bias=init_bt
            )

    def forward(self, x: tp.Any) -> variable.Variable:
        """Apply the layer to ``x`` of shape ``(n, in_out_size)``."""
        out_plain = self.activate(self.plain(x))
        gate = sigmoid(self.transform(x))
        # The gate goes first: a ChainerX array on the left would not defer to a Variable.
        return out_plain * gate + (1 - gate) * x
