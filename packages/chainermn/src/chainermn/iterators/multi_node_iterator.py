"""``create_multi_node_iterator``: the master rank's batches, broadcast to every rank."""

from __future__ import annotations

from typing import Any

from chainer.serializer import Deserializer, Serializer

_STATE = ("epoch", "is_new_epoch", "epoch_detail", "previous_epoch_detail", "current_position")


class _RecordingSerializer(Serializer):
    """Passes every call on to ``target`` and records ``(path, key, value)`` of each."""

    def __init__(self, target: Any, path: tuple = (), records: list | None = None) -> None:
        self.target = target
        self.path = path
        self.records = [] if records is None else records

    def __getitem__(self, key: str) -> _RecordingSerializer:
        return _RecordingSerializer(self.target[key], (*self.path, key), self.records)

    def __call__(self, key: str, value: Any) -> Any:
        result = self.target(key, value)
        self.records.append((self.path, key, value))
        return result


class _MultiNodeIterator:
    """Only the master draws batches; each ``next`` broadcasts the batch (pickled, so any
    picklable examples work) and the master's epoch state to the other ranks."""

    def __init__(self, actual_iterator, communicator, rank_master: int) -> None:
        self.actual_iterator = actual_iterator
        self.communicator = communicator
        self.rank_master = rank_master
        self._state = {name: getattr(actual_iterator, name, None) for name in _STATE}
        self._state = communicator.bcast_obj(self._state, root=rank_master)

    @property
    def is_master(self) -> bool:
        return self.communicator.rank == self.rank_master

    def __iter__(self):
        return self

    def __next__(self):
        message = None
        if self.is_master:
            try:
                batch = self.actual_iterator.next()
            except StopIteration:
                batch = StopIteration
            state = {name: getattr(self.actual_iterator, name, None) for name in _STATE}
            message = (batch, state)
        batch, self._state = self.communicator.bcast_obj(message, root=self.rank_master)
        if batch is StopIteration:
            raise StopIteration
        return batch

    next = __next__

    def __getattr__(self, name):
        if name in _STATE:
            return self.__dict__["_state"][name]
        return getattr(self.__dict__["actual_iterator"], name)

    def reset(self) -> None:
        """Reset the master's iterator (call it on every rank)."""
        if self.is_master:
            self.actual_iterator.reset()
        state = {name: getattr(self.actual_iterator, name, None) for name in _STATE}
        self._state = self.communicator.bcast_obj(state, root=self.rank_master)

    def serialize(self, serializer) -> None:
        """Save or load the master's iterator; every rank must call it at the same time.

        Saving writes the master's state on every rank (each rank's snapshot resumes the same
        batches, also into a plain iterator); loading reads only the master's serializer.
        """
        loading = isinstance(serializer, Deserializer)
        records = None
        if self.is_master:
            if loading:
                self.actual_iterator.serialize(serializer)
            else:
                recorder = _RecordingSerializer(serializer)
                self.actual_iterator.serialize(recorder)
                records = recorder.records
            self._state = {name: getattr(self.actual_iterator, name, None) for name in _STATE}
        records, self._state = self.communicator.bcast_obj(
            (records, self._state), root=self.rank_master
        )
        if not self.is_master and not loading:
            for path, key, value in records:
                target = serializer
                for name in path:
                    target = target[name]
                target(key, value)

    def finalize(self) -> None:
        finalize = getattr(self.actual_iterator, "finalize", None)
        if finalize is not None:
            finalize()


def create_multi_node_iterator(actual_iterator, communicator, rank_master: int = 0):
    """An iterator giving every rank the batches ``actual_iterator`` yields on ``rank_master``.

    Useful for model parallelism, where several ranks must see the same batch. Every rank
    must call ``next`` (and ``serialize``) the same number of times.

    Example:
        Every process of an MPI job runs it, e.g. under ``mpiexec -n 2``; the doctests run in one
        process, so they skip it.

        >>> it = chainermn.iterators.create_multi_node_iterator(  # doctest: +SKIP
        ...     chainer.iterators.SerialIterator(dataset, 32), comm)
    """
    return _MultiNodeIterator(actual_iterator, communicator, rank_master)
