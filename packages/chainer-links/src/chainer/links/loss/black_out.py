"""``BlackOut``: an output layer for large vocabularies trained on sampled words."""

from __future__ import annotations

import typing as tp
from collections.abc import Sequence

import numpy

from chainer import link, variable
from chainer.functions.loss.black_out import black_out
from chainer.utils.walker_alias import WalkerAlias


class BlackOut(link.Link):
    """BlackOut loss layer (Ji et al., 2016): wraps :func:`~chainer.functions.black_out`.

    Each row is scored against its target and ``sample_size`` words drawn with probability
    proportional to ``counts``.

    Args:
        in_size: Dimension of the input vectors.
        counts: Frequency of each word (the vocabulary size is ``len(counts)``).
        sample_size: Number of sampled words per row.

    Attributes:
        W (~chainer.Parameter): Output embeddings, ``(len(counts), in_size)``.
        sampler (~chainer.utils.WalkerAlias): The sampler (moved with the link).
        sample_data: If set (an int array ``(n, sample_size)``), used instead of drawing
            samples; meant for tests.

    Example:
        >>> loss_layer = L.BlackOut(3, [5, 1, 2, 2], sample_size=2)
        >>> x = numpy.ones((2, 3), numpy.float32)
        >>> loss_layer(x, numpy.array([0, 3], numpy.int32)).shape
        ()
    """

    sample_data: tp.Any = None

    def __init__(self, in_size: int, counts: Sequence[float], sample_size: int) -> None:
        super().__init__()
        self.sampler = WalkerAlias(numpy.asarray(counts, dtype=numpy.float32))
        self.sample_size = sample_size
        with self.init_scope():
            self.W = variable.Parameter(shape=(len(counts), in_size))

    def device_resident_accept(self, visitor: tp.Any) -> None:
        super().device_resident_accept(visitor)
        self.sampler.device_resident_accept(visitor)

    def forward(self, x: tp.Any, t: tp.Any) -> variable.Variable:
        """Compute the mean loss of ``x`` ``(n, in_size)`` for the targets ``t`` ``(n,)``."""
        if self.sample_data is not None:
            samples = self.sample_data
        else:
            samples = self.sampler.sample((x.shape[0], self.sample_size))
        return black_out(x, t, self.W, samples)
