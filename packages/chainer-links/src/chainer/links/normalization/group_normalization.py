"""``GroupNormalization``: normalization over groups of channels of each sample."""

from __future__ import annotations

import typing as tp

import numpy

import chainer
from chainer import link, variable
from chainer.functions.normalization.group_normalization import group_normalization
from chainer.links._weights import add_gamma_and_beta


class GroupNormalization(link.Link):
    """Group normalization layer (Wu and He, 2018): wraps
    :func:`~chainer.functions.group_normalization`.

    The channels of each sample are split into ``groups`` groups, each normalized with its own
    mean and variance, then scaled by ``gamma`` and shifted by ``beta`` (per channel).

    Args:
        groups: Number of channel groups; must divide the number of channels.
        size: Number of channels; ``None`` reads it from the first input.
        eps: Added to the variance for numerical stability.
        initial_gamma: Initializer of ``gamma``; ``None`` means ones.
        initial_beta: Initializer of ``beta``; ``None`` means zeros.

    ``gamma`` and ``beta`` take the dtype of ``chainer.config.dtype`` when the link is made,
    float32 under ``mixed16`` (the input may then be float16), as in Chainer.

    Attributes:
        gamma (~chainer.Parameter): Scale, ``(size,)``.
        beta (~chainer.Parameter): Shift, ``(size,)``.

    Example:
        >>> gn = L.GroupNormalization(2)
        >>> gn(numpy.random.randn(3, 4, 5).astype(numpy.float32)).shape
        (3, 4, 5)
    """

    def __init__(
        self,
        groups: int,
        size: int | None = None,
        eps: float = 1e-5,
        initial_gamma: tp.Any = None,
        initial_beta: tp.Any = None,
    ) -> None:
        super().__init__()
        self.groups = groups
        self.eps = eps
        highprec_dtype = chainer.get_dtype(None, map_mixed16=numpy.float32)
        add_gamma_and_beta(self, initial_gamma, initial_beta, dtype=highprec_dtype)
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size: int) -> None:
        self.gamma.initialize(size)
        self.beta.initialize(size)

    def forward(self, x: tp.Any) -> variable.Variable:
        """Normalize ``x`` of shape ``(n, channels, ...)``.

        Raises:
            ValueError: ``x`` has fewer than two axes.
        """
        if self.gamma.array is None:
            if x.ndim < 2:
                raise ValueError(
                    "the input of GroupNormalization needs a batch and a channel axis, got "
                    f"shape {x.shape}"
                )
            self._initialize_params(x.shape[1])
        return group_normalization(x, self.groups, self.gamma, self.beta, self.eps)
