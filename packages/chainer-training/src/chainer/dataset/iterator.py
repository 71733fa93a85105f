"""``Iterator``: the interface every dataset iterator implements."""

from __future__ import annotations

from typing import Any


class Iterator:
    """Base class of all dataset iterators.

    An iterator walks over a dataset and returns one mini-batch (usually a list of examples)
    per :meth:`next` call. It supports Python's iterator protocol and the context-manager
    protocol, whose exit calls :meth:`finalize`. Iterators used in training also provide
    ``epoch``, ``epoch_detail``, ``previous_epoch_detail``, ``is_new_epoch`` and ``batch_size``
    and save their position through :meth:`serialize`, so that a resumed run continues where
    the saved one stopped.

    Example:
        >>> dataset = list(range(5))
        >>> with chainer.iterators.SerialIterator(dataset, 2, repeat=False, shuffle=False) as it:
        ...     for batch in it:
        ...         print(batch)
        [0, 1]
        [2, 3]
        [4]
    """

    def __iter__(self) -> Iterator:
        return self

    def __next__(self) -> Any:
        if type(self).next is Iterator.next:
            raise NotImplementedError(f"{type(self).__name__} must implement next or __next__")
        return self.next()

    def next(self) -> Any:
        """Return the next mini-batch; raise ``StopIteration`` when there is none.

        A subclass implements either this method or ``__next__`` (as Chainer v7 iterators
        do); each one calls the other.
        """
        if type(self).__next__ is Iterator.__next__:
            raise NotImplementedError(f"{type(self).__name__} must implement next or __next__")
        return self.__next__()

    def finalize(self) -> None:
        """Release the resources (worker threads, processes, files) the iterator holds.

        The iterator must not be used afterwards. The base implementation does nothing.
        """

    def __enter__(self) -> Iterator:
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        self.finalize()

    def serialize(self, serializer: Any) -> None:
        """Save or load the iterator's position with a :class:`~chainer.AbstractSerializer`.

        The base implementation stores nothing.
        """
