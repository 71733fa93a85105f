"""``NegativeSampling``: the word2vec output layer trained by negative sampling."""

from __future__ import annotations

import typing as tp
from collections.abc import Sequence

import numpy

import chainer
from chainer import initializers, link, variable
from chainer.functions.loss import negative_sampling as negative_sampling_function
from chainer.utils import argument
from chainer.utils.walker_alias import WalkerAlias


class NegativeSampling(link.Link):
    """Negative sampling loss layer (Mikolov et al., 2013).

    Holds the output embeddings ``W`` and a sampler that draws negative examples with
    probability proportional to ``counts ** power``; wraps
    :func:`~chainer.functions.negative_sampling`.

    Args:
        in_size: Dimension of the input vectors.
        counts: Frequency of each word (the vocabulary size is ``len(counts)``).
        sample_size: Number of negative samples per row.
        power: Power applied to the frequencies before sampling.
        dtype: Dtype of ``W`` (``None``: the default dtype).

    Attributes:
        W (~chainer.Parameter): Output embeddings, ``(len(counts), in_size)``, zeros at first.
        sampler (~chainer.utils.WalkerAlias): The negative sampler (moved with the link).

    Example:
        >>> loss_layer = L.NegativeSampling(3, [5, 1, 2, 2], sample_size=2)
        >>> x = numpy.ones((2, 3), numpy.float32)
        >>> loss_layer(x, numpy.array([0, 3], numpy.int32)).shape
        ()
    """

    def __init__(
        self,
        in_size: int,
        counts: Sequence[float],
        sample_size: int,
        power: float = 0.75,
        dtype: tp.Any = None,
    ) -> None:
        super().__init__()
        dtype = chainer.get_dtype(dtype)
        self.sample_size = sample_size
        weights = numpy.power(numpy.asarray(counts, dtype=dtype), dtype.type(power))
        self.sampler = WalkerAlias(weights)
        with self.init_scope():
            self.W = variable.Parameter(initializers.Zero(dtype), (len(counts), in_size))

    def device_resident_accept(self, visitor: tp.Any) -> None:
        super().device_resident_accept(visitor)
        self.sampler.device_resident_accept(visitor)

    def forward(self, x: tp.Any, t: tp.Any, reduce: str = "sum", **kwargs: tp.Any) -> tp.Any:
        """Compute the loss of ``x`` ``(n, in_size)`` for the targets ``t`` ``(n,)``.

        Args:
            x: Input vectors.
            t: Target word IDs (``-1`` ignores the row).
            reduce: ``'sum'`` or ``'no'`` (one loss per row).
            return_samples (bool): Also return the sampled IDs (keyword only).
        """
        (return_samples,) = argument.parse_kwargs(kwargs, ("return_samples", False))
        # Looked up on the module at each call (as Chainer did), so code that patches
        # chainer.functions.loss.negative_sampling.negative_sampling reaches the link.
        result = negative_sampling_function.negative_sampling(
            x,
            t,
            self.W,
            self.sampler.sample,
            self.sample_size,
            reduce=reduce,
            return_samples=return_samples,
        )
        if not return_samples:
            return result
        # On ChainerX the loss may be computed on NumPy views; the samples go where W lives.
        loss, samples = result
        return loss, self.W.device.send(samples)
