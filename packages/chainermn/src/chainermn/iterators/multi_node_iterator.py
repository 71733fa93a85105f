"""``create_multi_node_iterator``: the master rank's batches, broadcast to every rank."""

from __future__ import annotations

_STATE = ("epoch", "is_new_epoch", "epoch_detail", "previous_epoch_detail", "current_position")


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
        """Serialize the wrapped iterator; every rank must call it at the same time."""
        self.actual_iterator.serialize(serializer)
        if self.is_master:
            self._state = {name: getattr(self.actual_iterator, name, None) for name in _STATE}
        self._state = self.communicator.bcast_obj(self._state, root=self.rank_master)

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
