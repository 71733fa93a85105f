"""``MultithreadIterator``: examples loaded by a pool of threads, one batch ahead."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.dataset.iterator import Iterator
from chainer.iterators import _state
from chainer.serializer import Deserializer

if TYPE_CHECKING:
    import concurrent.futures


class MultithreadIterator(Iterator):
    """Dataset iterator that loads examples in parallel.

    The examples of a batch are read by ``n_threads`` threads, and while the caller works on
    one batch the next one is already being read. This helps when reading an example waits on
    I/O or runs code that releases the GIL (image decoding, NumPy). Batches, epochs and
    serialization are exactly those of :class:`~chainer.iterators.SerialIterator`.

    Args:
        dataset: The dataset: anything with ``__len__`` and thread-safe integer
            ``__getitem__``.
        batch_size: The number of examples per batch.
        repeat: Whether to cycle through the dataset forever.
        shuffle: Whether to visit the examples in a new random order every epoch; ``None``
            means ``True`` unless ``order_sampler`` is given.
        n_threads: The number of threads reading examples.
        order_sampler: A callable that returns each epoch's order; ``shuffle`` must then be
            ``None``.
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
        n_threads: int = 1,
        order_sampler: Any = None,
    ) -> None:
        if isinstance(n_threads, bool) or not isinstance(n_threads, int) or n_threads < 1:
            raise ValueError(f"n_threads must be a positive int, got {n_threads!r}")
        self.dataset = dataset
        self.batch_size = _state.check_batch_size(batch_size)
        self.n_threads = n_threads
        self.order_sampler = _state.resolve_order_sampler(shuffle, order_sampler, True)
        self._shuffle = self.order_sampler is not None
        self._schedule = _state.Schedule(len(dataset), self.batch_size, repeat, self.order_sampler)
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        self._ahead: tuple | None = None  # (progress, futures) of the batch being read
        self.reset()

    def next(self) -> list:
        """Return the next batch (a list of examples); ``StopIteration`` when it is over."""
        if self._ahead is None:
            self._ahead = self._start_reading(self._progress)
        progress, futures = self._ahead
        self._ahead = None  # a failed batch is read again by the next call
        if futures is None:
            raise StopIteration
        batch = [future.result() for future in futures]
        self._progress = progress
        self._ahead = self._start_reading(progress)
        return batch

    def _start_reading(self, progress: _state.Progress) -> tuple:
        after, indices = self._schedule.advance(progress)
        if indices is None:
            return after, None
        if self._executor is None:
            import concurrent.futures  # here: 1.7 ms at `import chainer.iterators`

            self._executor = concurrent.futures.ThreadPoolExecutor(
                self.n_threads, thread_name_prefix="MultithreadIterator"
            )
        return after, [self._executor.submit(self.dataset.__getitem__, i) for i in indices]

    def reset(self) -> None:
        """Go back to the start of the first epoch (drawing a new order)."""
        self._discard_ahead()
        self._progress = self._schedule.start()

    def serialize(self, serializer: Any) -> None:
        """Save or load the position, the order and the order sampler's state."""
        progress = self._schedule.serialize(serializer, self._progress)
        if isinstance(serializer, Deserializer):
            self._discard_ahead()
            self._progress = progress

    def finalize(self) -> None:
        """Stop the reading threads (a later :meth:`next` starts new ones)."""
        self._discard_ahead()
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def _discard_ahead(self) -> None:
        if self._ahead is not None and self._ahead[1] is not None:
            for future in self._ahead[1]:
                future.cancel()
        self._ahead = None
