"""``DecorrelatedBatchNormalization``: whitening of channel groups, with running statistics."""

from __future__ import annotations

import typing as tp
import warnings

import numpy

import chainer
from chainer import backend, configuration, link, variable
from chainer.functions.normalization.decorrelated_batch_normalization import (
    decorrelated_batch_normalization,
    fixed_decorrelated_batch_normalization,
)
from chainer.links.normalization.batch_normalization import training_decay
from chainer.serializer import Deserializer
from chainer.utils import argument

_TEST_REMOVED = "test argument is not supported anymore. Use chainer.using_config"
_STATISTICS = ("avg_mean", "avg_projection")


class DecorrelatedBatchNormalization(link.Link):
    """Decorrelated batch normalization layer (Huang et al., 2018).

    The channels are split into ``groups`` groups of ``C = size // groups``; in training mode
    each group is centered and ZCA-whitened with the statistics of the batch, and the running
    averages ``avg_mean`` and ``avg_projection`` are updated with them. In evaluation mode the
    running averages are used. ``finetune`` works as in :class:`BatchNormalization`.

    Args:
        size: Number of channels of the input.
        groups: Number of channel groups; must divide ``size``.
        decay: Decay rate of the running averages.
        eps: Added to the covariance's diagonal for numerical stability.
        dtype: Dtype of the running statistics.

    Attributes:
        avg_mean: Running means, ``(groups, C)`` (persistent).
        avg_projection: Running whitening matrices, ``(groups, C, C)`` (persistent).
        N (int): Number of batches seen while fine-tuning (persistent).

    Example:
        >>> dbn = L.DecorrelatedBatchNormalization(4, groups=2)
        >>> dbn(numpy.random.randn(16, 4).astype(numpy.float32)).shape
        (16, 4)
    """

    def __init__(
        self,
        size: int,
        groups: int = 16,
        decay: float = 0.9,
        eps: float = 2e-5,
        dtype: tp.Any = numpy.float32,
    ) -> None:
        super().__init__()
        if size % groups != 0:
            raise ValueError(f"size must be divisible by groups: got size={size}, groups={groups}")
        channels = size // groups
        self.size = size
        self.groups = groups
        self.decay = decay
        self.eps = eps
        self.N = 0
        self.register_persistent("N")
        self.add_persistent("avg_mean", numpy.zeros((groups, channels), dtype=dtype))
        # Whitening starts as the identity in every group.
        projection = numpy.broadcast_to(
            numpy.eye(channels, dtype=dtype), (groups, channels, channels)
        )
        self.add_persistent("avg_projection", projection.copy())

    def serialize(self, serializer: chainer.AbstractSerializer) -> None:
        if isinstance(serializer, Deserializer):
            serializer = _GroupAxisDeserializer(serializer)
        super().serialize(serializer)

    def forward(self, x: tp.Any, **kwargs: tp.Any) -> variable.Variable:
        """Normalize ``x`` of shape ``(n, size, ...)``.

        Args:
            x: Input batch.
            finetune (bool): In training mode, accumulate exact population statistics
                (keyword only).
        """
        (finetune,) = argument.parse_kwargs(kwargs, ("finetune", False), test=_TEST_REMOVED)
        if not configuration.config.train:
            return fixed_decorrelated_batch_normalization(
                x, self.avg_mean, self.avg_projection, groups=self.groups
            )
        decay = training_decay(self, finetune)
        # F.forget's recomputation repeats a pass whose statistics were already counted (the
        # output uses the batch's own statistics, so it is the same without the update).
        recomputing = configuration.config.in_recomputing
        if recomputing and finetune:
            self.N -= 1
        return decorrelated_batch_normalization(
            x,
            groups=self.groups,
            eps=self.eps,
            running_mean=None if recomputing else self.avg_mean,
            running_projection=None if recomputing else self.avg_projection,
            decay=decay,
        )

    def start_finetuning(self) -> None:
        """Reset the batch count, to start accumulating population statistics anew."""
        self.N = 0


class _GroupAxisDeserializer(Deserializer):
    """Loads statistics saved with one set shared by all groups (no leading group axis), as
    older versions wrote them, by repeating them for every group (with a ``UserWarning`` when
    there are several groups, as in v7: the old statistics were not per group)."""

    def __init__(self, base: Deserializer) -> None:
        self.base = base

    def __getitem__(self, key: str) -> chainer.AbstractSerializer:
        return self.base[key]

    def __call__(self, key: str, value: tp.Any) -> tp.Any:
        if key not in _STATISTICS:
            return self.base(key, value)
        loaded = self.base(key, None)
        if loaded is None:
            return value
        if loaded.shape == value.shape[1:]:
            if value.shape[0] != 1:
                warnings.warn(
                    f"{key!r} was saved without the group axis (an older file): the same "
                    f"statistics are used for each of the {value.shape[0]} groups",
                    UserWarning,
                    stacklevel=2,
                )
            loaded = numpy.broadcast_to(backend.CpuDevice().send(loaded), value.shape)
        if loaded.shape != value.shape:
            raise ValueError(
                f"cannot load {key!r}: expected shape {value.shape} (or {value.shape[1:]}), "
                f"found {loaded.shape}"
            )
        backend.copyto(value, loaded)
        return value
