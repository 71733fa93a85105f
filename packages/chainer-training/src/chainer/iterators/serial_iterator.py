"""``SerialIterator``: mini-batches read in the calling thread."""

from __future__ import annotations

from typing import Any

from chainer.dataset.iterator import Iterator
from chainer.iterators import _state


class SerialIterator(Iterator):
    """Dataset iterator that serially reads the examples.

    Each :meth:`next` returns a list of ``batch_size`` examples (the last batch of a
    non-repeating iteration may be shorter), read from the dataset in the calling thread.

    Args:
        dataset: The dataset: anything with ``__len__`` and integer ``__getitem__``.
        batch_size: The number of examples per batch.
        repeat: Whether to cycle through the dataset forever (training) or stop after one
            epoch (evaluation).
        shuffle: Whether to visit the examples in a new random order every epoch; ``None``
            means ``True`` unless ``order_sampler`` is given.
        order_sampler: A callable that returns each epoch's order (see
            :class:`~chainer.iterators.OrderSampler`); ``shuffle`` must then be ``None``.

    Example:
        >>> it = SerialIterator(list(range(10)), 4, repeat=False, shuffle=False)
        >>> [batch for batch in it]
        [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    """

    epoch = _state.epoch
    epoch_detail = _state.epoch_detail
    previous_epoch_detail = _state.previous_epoch_detail
    is_new_epoch = _state.is_new_epoch
    current_position = _state.current_position
    repeat = _state.repeat

    def __init__(
        self,
        dataset: Any,
        batch_size: int,
        repeat: bool = True,
        shuffle: bool | None = None,
        order_sampler: Any = None,
    ) -> None:
        self.dataset = dataset
        self.batch_size = _state.check_batch_size(batch_size)
        self.order_sampler = _state.resolve_order_sampler(shuffle, order_sampler, True)
        self._shuffle = self.order_sampler is not None
        self._schedule = _state.Schedule(len(dataset), self.batch_size, repeat, self.order_sampler)
        self.reset()

    def next(self) -> list:
        """Return the next batch (a list of examples); ``StopIteration`` when it is over."""
        progress, indices = self._schedule.advance(self._progress)
        if indices is None:
            raise StopIteration
        batch = [self.dataset[index] for index in indices]
        self._progress = progress
        return batch

    def reset(self) -> None:
        """Go back to the start of the first epoch (drawing a new order)."""
        self._progress = self._schedule.start()

    def serialize(self, serializer: Any) -> None:
        """Save or load the position, the order and the order sampler's state."""
        self._progress = self._schedule.serialize(serializer, self._progress)
