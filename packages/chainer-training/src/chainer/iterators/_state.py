"""Epoch bookkeeping shared by the iterators: positions, orders, epochs and their serialization.

A :class:`Progress` is an immutable record of where an iterator stands, so a prefetching
iterator can keep one per batch in flight and still report (and save) the position of the
batch it last returned. A :class:`Schedule` holds the rules (dataset length, batch size,
``repeat``, order sampler) and computes the next batch's indices and progress.

The properties at the bottom are shared by the iterator classes, which keep their current
:class:`Progress` in ``_progress`` and their :class:`Schedule` in ``_schedule``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy

from chainer.serializer import Deserializer
from chainer.serializers import DictionarySerializer


@dataclasses.dataclass(frozen=True)
class Progress:
    """Where an iterator stands after a batch."""

    position: int  # index into the epoch's order of the next example
    epoch: int  # completed epochs
    is_new_epoch: bool  # whether the last batch completed an epoch
    order: numpy.ndarray | None  # the epoch's order; None visits 0, 1, 2, ...
    previous_epoch_detail: float  # epoch_detail before the last batch; negative: none yet
    sampler_state: dict | None  # the order sampler's serialized state as of drawing `order`


class Schedule:
    """The rules of an iteration and the step from one batch to the next.

    Args:
        dataset_length: The number of examples.
        batch_size: The number of examples per batch.
        repeat: Whether to cycle through the dataset forever.
        order_sampler: The sampler of each epoch's order, or ``None`` to visit the dataset
            in index order.
    """

    def __init__(
        self, dataset_length: int, batch_size: int, repeat: bool, order_sampler: Any
    ) -> None:
        self.dataset_length = dataset_length
        self.batch_size = batch_size
        self.repeat = repeat
        self.order_sampler = order_sampler

    def start(self) -> Progress:
        """The progress before the first batch (drawing the first order)."""
        order, sampler_state = None, None
        if self.order_sampler is not None:
            # The first order sets the epoch size: it may differ from the dataset's length
            # (e.g. a sampler that visits every example twice).
            order = numpy.asarray(self.order_sampler(numpy.arange(self.dataset_length), 0))
            sampler_state = _capture(self.order_sampler)
        return Progress(0, 0, False, order, -1.0, sampler_state)

    def epoch_size(self, progress: Progress) -> int:
        return self.dataset_length if progress.order is None else len(progress.order)

    def epoch_detail(self, progress: Progress) -> float:
        size = self.epoch_size(progress)
        return progress.epoch + (progress.position / size if size else 0.0)

    def advance(self, progress: Progress) -> tuple[Progress, list[int] | None]:
        """Return the progress after the next batch and the batch's indices.

        The indices are ``None`` when the iteration is over (``repeat`` is off and one epoch
        is done). A batch that crosses the end of an epoch continues in the next epoch when
        ``repeat`` is on, and stops there otherwise.
        """
        if not self.repeat and progress.epoch > 0:
            return progress, None
        size = self.epoch_size(progress)
        if size == 0 and self.repeat:
            raise ValueError("cannot repeat over an empty dataset: it has no examples")
        position, epoch, order = progress.position, progress.epoch, progress.order
        sampler_state, is_new_epoch = progress.sampler_state, False
        indices: list[int] = []
        while len(indices) < self.batch_size:
            stop = min(size, position + self.batch_size - len(indices))
            indices.extend(range(position, stop) if order is None else order[position:stop])
            position = stop
            if position == size:
                epoch += 1
                is_new_epoch = True
                position = 0
                if order is not None:
                    order, sampler_state = self._draw(order, size)
                if not self.repeat:
                    break
        after = Progress(
            position,
            epoch,
            is_new_epoch,
            order,
            self.epoch_detail(progress),
            sampler_state,
        )
        return after, [int(i) for i in indices]

    def _draw(self, order: numpy.ndarray, position: int) -> tuple[numpy.ndarray, dict | None]:
        new_order = self.order_sampler(order, position)
        if len(new_order) != len(order):
            raise ValueError(
                f"the order sampler {self.order_sampler!r} returned an order of "
                f"{len(new_order)} indices after an order of {len(order)}: every epoch must "
                "have the size of the first"
            )
        return numpy.asarray(new_order), _capture(self.order_sampler)

    def serialize(self, serializer: Any, progress: Progress) -> Progress:
        """Save ``progress`` with ``serializer``, or load and return the stored progress.

        The keys are those of Chainer's iterators (``current_position``, ``epoch``,
        ``is_new_epoch``, ``order``, ``previous_epoch_detail``), plus ``order_sampler/...``
        for a sampler that implements ``serialize``.
        """
        position = serializer("current_position", progress.position)
        epoch = serializer("epoch", progress.epoch)
        is_new_epoch = serializer("is_new_epoch", progress.is_new_epoch)
        order = progress.order
        if order is not None:
            try:
                loaded = serializer("order", order.copy())
            except KeyError:  # saved by a Chainer release that named it '_order'
                loaded = serializer("_order", order.copy())
            order = order if loaded is None else loaded
        try:
            previous = serializer("previous_epoch_detail", progress.previous_epoch_detail)
        except KeyError:  # saved by a Chainer release that did not store it
            previous = self._guess_previous(position, epoch, order)
        sampler_state = self._serialize_sampler(serializer, progress.sampler_state)
        loaded_progress = Progress(position, epoch, is_new_epoch, order, previous, sampler_state)
        if isinstance(serializer, Deserializer):
            self._check_loaded(loaded_progress)
        return loaded_progress

    def _serialize_sampler(self, serializer: Any, state: dict | None) -> dict | None:
        if not _capture(self.order_sampler):  # nothing to store or restore
            return state
        try:
            child = serializer["order_sampler"]
        except NotImplementedError:  # a serializer without children keeps v7's keys only
            return state
        if isinstance(serializer, Deserializer):
            try:
                self.order_sampler.serialize(child)
            except KeyError:  # saved without sampler state: keep the sampler as it is
                pass
            return _capture(self.order_sampler)
        for key, value in (state or {}).items():
            child(key, value)
        return state

    def _guess_previous(self, position: int, epoch: int, order: Any) -> float:
        size = self.dataset_length if order is None else len(order)
        detail = epoch + (position / size if size else 0.0)
        if detail <= 0:
            return -1.0
        return max(epoch + (position - self.batch_size) / size, 0.0)

    def _check_loaded(self, progress: Progress) -> None:
        size = self.epoch_size(progress)
        order = progress.order
        if (
            order is not None
            and len(order)
            and not 0 <= min(order) <= max(order) < self.dataset_length
        ):
            raise ValueError(
                f"the loaded order has indices outside the dataset of {self.dataset_length} "
                "examples"
            )
        if not 0 <= progress.position <= size:
            raise ValueError(
                f"the loaded position {progress.position} is outside the epoch of {size} examples"
            )


def _capture(sampler: Any) -> dict | None:
    """The sampler's state as its ``serialize`` writes it, or ``None`` if it has none."""
    if not hasattr(sampler, "serialize"):
        return None
    target = DictionarySerializer()
    sampler.serialize(target)
    return target.target


def resolve_order_sampler(shuffle: bool | None, order_sampler: Any, default_shuffle: bool) -> Any:
    """The order sampler an iterator uses given its ``shuffle`` and ``order_sampler`` arguments."""
    from chainer.iterators.order_samplers import ShuffleOrderSampler

    if order_sampler is not None:
        if shuffle is not None:
            raise ValueError(
                "shuffle must be None when a custom order_sampler is given (the sampler "
                f"decides the order), got shuffle={shuffle!r}"
            )
        return order_sampler
    if shuffle if shuffle is not None else default_shuffle:
        return ShuffleOrderSampler()
    return None


def check_batch_size(batch_size: Any) -> int:
    if isinstance(batch_size, bool) or not isinstance(batch_size, (int, numpy.integer)):
        raise TypeError(f"batch_size must be an int, got {type(batch_size).__name__}")
    if batch_size < 1:
        raise ValueError(f"batch_size must be positive, got {batch_size}")
    return int(batch_size)


def _epoch(self) -> int:
    """The number of completed epochs."""
    return self._progress.epoch


def _epoch_detail(self) -> float:
    """The epoch as a float: completed epochs plus the fraction done of the current one."""
    return self._schedule.epoch_detail(self._progress)


def _previous_epoch_detail(self) -> float | None:
    """:attr:`epoch_detail` before the last batch; ``None`` before the first batch."""
    previous = self._progress.previous_epoch_detail
    return None if previous < 0 else previous


def _is_new_epoch(self) -> bool:
    """Whether the last batch completed an epoch."""
    return self._progress.is_new_epoch


def _current_position(self) -> int:
    """The position in the current epoch's order of the next example."""
    return self._progress.position


def _repeat(self) -> bool:
    """Whether the iterator cycles through the dataset forever."""
    return self._schedule.repeat


epoch = property(_epoch)
epoch_detail = property(_epoch_detail)
previous_epoch_detail = property(_previous_epoch_detail)
is_new_epoch = property(_is_new_epoch)
current_position = property(_current_position)
repeat = property(_repeat)
