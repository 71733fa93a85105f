"""``LayerNormalization``: normalization over the features of each sample."""

from __future__ import annotations

import typing as tp

from chainer import link, utils, variable
from chainer.functions.normalization.layer_normalization import layer_normalization
from chainer.links._weights import add_gamma_and_beta


class LayerNormalization(link.Link):
    """Layer normalization layer (Ba et al., 2016): wraps
    :func:`~chainer.functions.layer_normalization`.

    Each row of a ``(n, size)`` input is normalized with its own mean and variance, then
    scaled by ``gamma`` and shifted by ``beta``.

    Args:
        size: Number of features; ``None`` reads it from the first input (the product of its
            non-batch axes).
        eps: Added to the variance for numerical stability.
        initial_gamma: Initializer of ``gamma``; ``None`` means ones.
        initial_beta: Initializer of ``beta``; ``None`` means zeros.

    Attributes:
        gamma (~chainer.Parameter): Scale, ``(size,)``.
        beta (~chainer.Parameter): Shift, ``(size,)``.

    Example:
        >>> ln = L.LayerNormalization()
        >>> ln(numpy.random.randn(3, 4).astype(numpy.float32)).shape
        (3, 4)
    """

    def __init__(
        self,
        size: int | None = None,
        eps: float = 1e-6,
        initial_gamma: tp.Any = None,
        initial_beta: tp.Any = None,
    ) -> None:
        super().__init__()
        add_gamma_and_beta(self, initial_gamma, initial_beta)
        self.eps = eps
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size: int) -> None:
        self.gamma.initialize(size)
        self.beta.initialize(size)

    def forward(self, x: tp.Any) -> variable.Variable:
        """Normalize ``x`` of shape ``(n, size)``."""
        if self.gamma.array is None:
            self._initialize_params(utils.size_of_shape(x.shape[1:]))
        return layer_normalization(x, self.gamma, self.beta, self.eps)
