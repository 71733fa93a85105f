"""``SimplifiedDropconnect``: a fully-connected layer whose weights are dropped at random."""

from __future__ import annotations

import typing as tp

from chainer import link, variable
from chainer.functions.noise.simplified_dropconnect import simplified_dropconnect
from chainer.links._weights import add_weight_and_bias


class SimplifiedDropconnect(link.Link):
    """Fully-connected layer with simplified DropConnect regularization.

    Wraps :func:`~chainer.functions.simplified_dropconnect`: in training, each weight is
    dropped with probability ``ratio`` (the rest scaled by ``1 / (1 - ratio)``), with one
    mask per sample or one for the batch.

    Args:
        in_size: Dimension of the input vectors; ``None`` reads it from the first input.
        out_size: Dimension of the output vectors.
        ratio: Dropconnect ratio.
        nobias: Do not use a bias.
        initialW: Initializer of ``W``; ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        initial_bias: Initializer of ``b``; ``None`` means zeros.

    Attributes:
        W (~chainer.Parameter): Weight, ``(out_size, in_size)``.
        b (~chainer.Parameter): Bias, ``(out_size,)``, or ``None`` with ``nobias``.

    Example:
        >>> layer = L.SimplifiedDropconnect(None, 3)
        >>> layer(numpy.ones((2, 4), numpy.float32)).shape
        (2, 3)
    """

    def __init__(
        self,
        in_size: int | None,
        out_size: int,
        ratio: float = 0.5,
        nobias: bool = False,
        initialW: tp.Any = None,
        initial_bias: tp.Any = None,
    ) -> None:
        super().__init__()
        self.out_size = out_size
        self.ratio = ratio
        add_weight_and_bias(self, initialW, nobias, initial_bias, out_size)
        if in_size is not None:
            self._initialize_params(in_size)

    def _initialize_params(self, in_size: int) -> None:
        self.W.initialize((self.out_size, in_size))

    def forward(
        self,
        x: tp.Any,
        train: bool = True,
        mask: tp.Any = None,
        use_batchwise_mask: bool = True,
    ) -> variable.Variable:
        """Apply the layer to ``x`` ``(n, ...)`` (its non-batch axes flattened).

        Args:
            x: Input batch.
            train: Drop weights (``False`` uses all of them, unscaled).
            mask: A fixed mask, ``(out_size, in_size)`` or ``(n, out_size, in_size)``.
            use_batchwise_mask: One mask per sample (``True``) or one for the batch.
        """
        if self.W.array is None:
            self._initialize_params(x.size // len(x))
        return simplified_dropconnect(
            x, self.W, self.b, self.ratio, train, mask, use_batchwise_mask
        )
