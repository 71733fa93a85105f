"""``MultiprocessIterator``: examples loaded by worker processes, batches prefetched."""

from __future__ import annotations

import collections
import os
import weakref
from typing import TYPE_CHECKING, Any

from chainer.dataset.iterator import Iterator
from chainer.iterators import _state
from chainer.serializer import Deserializer

if TYPE_CHECKING:
    from chainer.iterators._worker_pool import BatchLoader


class MultiprocessIterator(Iterator):
    """Dataset iterator that loads examples in parallel.

    ``n_processes`` worker processes read the examples, and up to ``n_prefetch`` batches are
    loaded ahead while the caller works. The arrays of the examples come back through shared
    memory. Batches, epochs and serialization are exactly those of
    :class:`~chainer.iterators.SerialIterator`.

    The workers start on the first :meth:`next` and stop on :meth:`finalize` (or when the
    iterator is garbage collected, or at exit); as in Chainer v7, :meth:`reset` is not
    supported after :meth:`finalize`. A copy (``copy.copy``) or an unpickled iterator
    continues from the same position with workers of its own.

    An exception raised by the dataset in a worker is raised by :meth:`next` (with the
    worker's traceback as its cause); a worker that dies raises :class:`RuntimeError`
    instead of hanging. Either way the iterator does not advance, and the next call loads
    the batch again.

    The dataset reaches the workers by ``fork`` where that is Python's default start method
    (Linux before Python 3.14), else by pickling. Code that does not survive ``fork`` (some
    OpenCV or MPI set-ups) can deadlock in the workers; :class:`MultithreadIterator` avoids
    processes altogether.

    Args:
        dataset: The dataset: anything with ``__len__`` and integer ``__getitem__``.
        batch_size: The number of examples per batch.
        repeat: Whether to cycle through the dataset forever.
        shuffle: Whether to visit the examples in a new random order every epoch; ``None``
            means ``True`` unless ``order_sampler`` is given.
        n_processes: The number of worker processes (``None``: the number of CPUs).
        n_prefetch: The number of batches loaded ahead.
        shared_mem: Bytes of shared memory per example. ``None`` sizes it automatically
            from the examples seen; examples that do not fit are sent pickled.
        order_sampler: A callable that returns each epoch's order; ``shuffle`` must then be
            ``None``.
        dataset_timeout: Seconds after which a batch still loading triggers a
            :class:`MultiprocessIterator.TimeoutWarning` (``None`` or 0: never).
        maxtasksperchild: How many tasks (a worker's share of one batch) a worker runs
            before it is replaced by a fresh process, to free what the dataset leaks;
            ``None``: no limit.
    """

    class TimeoutWarning(RuntimeWarning):
        """Loading a batch took longer than ``dataset_timeout``: the dataset may be stalled."""

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
        n_processes: int | None = None,
        n_prefetch: int = 1,
        shared_mem: int | None = None,
        order_sampler: Any = None,
        dataset_timeout: float | None = 30.0,
        maxtasksperchild: int | None = None,
    ) -> None:
        self.dataset = dataset
        self.batch_size = _state.check_batch_size(batch_size)
        if n_processes is None:
            n_processes = os.cpu_count() or 1
        self.n_processes = _positive("n_processes", n_processes)
        self.n_prefetch = _positive("n_prefetch", n_prefetch)
        if shared_mem is not None and shared_mem < 0:
            raise ValueError(f"shared_mem must be None or a non-negative int, got {shared_mem}")
        self.shared_mem = shared_mem
        self.dataset_timeout = dataset_timeout
        if maxtasksperchild is not None:
            _positive("maxtasksperchild", maxtasksperchild)
        self.maxtasksperchild = maxtasksperchild
        self.order_sampler = _state.resolve_order_sampler(shuffle, order_sampler, True)
        self._shuffle = self.order_sampler is not None
        self._schedule = _state.Schedule(len(dataset), self.batch_size, repeat, self.order_sampler)
        self._loader: BatchLoader | None = None
        self._finalizer: weakref.finalize | None = None
        # Batches being loaded: (progress after the batch, ticket); ticket None = the end.
        self._pipeline: collections.deque = collections.deque()
        self._finalized = False
        self.reset()

    def next(self) -> list:
        """Return the next batch (a list of examples); ``StopIteration`` when it is over."""
        self._fill(1)
        progress, ticket = self._pipeline[0]
        if ticket is None:
            raise StopIteration
        try:
            batch = self._loader.wait(ticket, self.dataset_timeout, self.TimeoutWarning)
        except BaseException:
            self._discard_pipeline()
            raise
        self._pipeline.popleft()
        self._progress = progress
        self._fill(self.n_prefetch)
        return batch

    def _fill(self, depth: int) -> None:
        """Make sure ``depth`` batches are being loaded (fewer once the iteration ends)."""
        while len(self._pipeline) < depth:
            if self._pipeline and self._pipeline[-1][1] is None:
                return
            ahead = self._pipeline[-1][0] if self._pipeline else self._progress
            progress, indices = self._schedule.advance(ahead)
            if indices is None:
                self._pipeline.append((progress, None))
                return
            self._pipeline.append((progress, self._start_loader().submit(indices)))

    def _start_loader(self) -> BatchLoader:
        if self._loader is None:
            # Imported here: the pool's multiprocessing and shared memory cost about 8 ms at
            # `import chainer.iterators`, which every training program pays.
            from chainer.iterators._worker_pool import BatchLoader

            self._loader = BatchLoader(
                self.dataset, self.n_processes, self.shared_mem, self.maxtasksperchild
            )
            self._finalizer = weakref.finalize(self, self._loader.close)
        return self._loader

    def reset(self) -> None:
        """Go back to the start of the first epoch (drawing a new order).

        Raises:
            NotImplementedError: The iterator was finalized.
        """
        if self._finalized:
            raise NotImplementedError(
                "MultiprocessIterator does not support reset() after finalize(): create a new "
                "iterator instead"
            )
        self._discard_pipeline()
        self._progress = self._schedule.start()

    def serialize(self, serializer: Any) -> None:
        """Save or load the position, the order and the order sampler's state."""
        progress = self._schedule.serialize(serializer, self._progress)
        if isinstance(serializer, Deserializer):
            self._discard_pipeline()
            self._progress = progress

    def finalize(self) -> None:
        """Stop the worker processes and free the shared memory (a later :meth:`next`
        starts new workers; :meth:`reset` is no longer supported)."""
        self._pipeline.clear()
        if self._finalizer is not None:
            self._finalizer()
        self._loader = self._finalizer = None
        self._finalized = True

    def __getstate__(self) -> dict[str, Any]:
        # Workers, shared memory and batches in flight stay with this iterator: a copy or an
        # unpickled iterator loads again from the position of the last returned batch.
        state = self.__dict__.copy()
        state.update(_loader=None, _finalizer=None, _pipeline=collections.deque())
        return state

    def __copy__(self) -> MultiprocessIterator:
        copied = type(self).__new__(type(self))
        copied.__dict__.update(self.__getstate__())
        return copied

    def _discard_pipeline(self) -> None:
        while self._pipeline:
            _, ticket = self._pipeline.popleft()
            if ticket is not None:
                self._loader.discard(ticket)


def _positive(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive int, got {value!r}")
    return value
