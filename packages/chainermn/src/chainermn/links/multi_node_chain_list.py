"""``MultiNodeChainList``: one process's part of a model split across processes."""

from __future__ import annotations

import collections
import numbers

import chainer
from chainermn.functions import pseudo_connect, recv, send


def _ranks(value, comm, name: str) -> tuple | None:
    """``None``, an int or a sequence of ints as a tuple of valid ranks (or None)."""
    if value is None:
        return None
    items = value if isinstance(value, (list, tuple, range)) else [value]
    for rank in items:
        if isinstance(rank, bool) or not isinstance(rank, numbers.Integral):
            raise TypeError(f"{name} must be None, a rank (int) or a list of ranks, got {value!r}")
        if not 0 <= rank < comm.size:
            raise ValueError(
                f"{name}: rank {rank} is outside the communicator (ranks 0 to {comm.size - 1})"
            )
    if not items:
        raise ValueError(f"{name} is an empty list; use None for no communication")
    return tuple(int(r) for r in items)


def _as_tuple(y) -> tuple:
    return tuple(y) if isinstance(y, (tuple, list)) else (y,)


def _float_variable(xs: tuple):
    """The first floating-point variable of ``xs`` (None if there is none)."""
    for x in xs:
        if isinstance(x, chainer.Variable) and x.dtype.kind == "f":
            return x
    return None


class MultiNodeChainList(chainer.ChainList):
    """Components of a model on this process, joined to the other processes' components.

    Each component (a :class:`~chainer.Link`) is registered with :meth:`add_link` together
    with where its inputs come from and where its outputs go. Calling the list runs the
    components in the order they were added: a component with ``rank_in=None`` takes the
    list's own inputs, others receive theirs (one argument per rank in ``rank_in``); a
    component with ``rank_out=None`` gives the list's output, others send theirs. A rank
    equal to this process's passes the variable on locally, in order.

    Every communication is joined to the one before it (delegate variables and
    :func:`~chainermn.functions.pseudo_connect`), so backward from the returned variable
    runs them all, in reverse order: if the forward pass does not deadlock, backward does
    not either. When the last component sends, the result is the delegate variable: call
    ``backward()`` on it.

    Args:
        comm: A ChainerMN communicator.

    Example (the MLP of the model-parallel tutorial, on 2 processes)::

        class MLP0(chainermn.MultiNodeChainList):  # rank 0
            def __init__(self, comm):
                super().__init__(comm)
                self.add_link(L.Linear(784, 100), rank_in=None, rank_out=1)
                self.add_link(L.Linear(10, 10), rank_in=1, rank_out=None)

        class MLP1(chainermn.MultiNodeChainList):  # rank 1
            def __init__(self, comm):
                super().__init__(comm)
                self.add_link(L.Linear(100, 10), rank_in=0, rank_out=0)
    """

    def __init__(self, comm) -> None:
        super().__init__()
        self._comm = comm
        self._rank_inouts: list[tuple] = []

    def add_link(self, link: chainer.Link, rank_in=None, rank_out=None) -> None:
        """Append ``link``, receiving from ``rank_in`` and sending to ``rank_out``.

        Args:
            link: The component.
            rank_in: ``None`` (the list's inputs), a rank or a list of ranks: the component
                is called with one received value per rank (a tuple where a tuple was sent).
            rank_out: ``None`` (the list's output), a rank or a list of ranks to send the
                component's output (a variable or a tuple of them) to.
        """
        ranks_in = _ranks(rank_in, self._comm, "rank_in")
        ranks_out = _ranks(rank_out, self._comm, "rank_out")
        super().add_link(link)
        self._rank_inouts.append((ranks_in, ranks_out))

    def forward(self, *inputs):
        comm = self._comm
        local = collections.deque()  # outputs this process sent to itself, in order
        handle = None  # a variable created by the latest communication
        result = None
        for index, (link, (ranks_in, ranks_out)) in enumerate(
            zip(self._children, self._rank_inouts)
        ):
            if ranks_in is None:
                args = inputs
            else:
                args = []
                for rank in ranks_in:
                    if rank == comm.rank:
                        if not local:
                            raise ValueError(
                                f"component {index} receives from this process (rank {rank}) "
                                "but no earlier component sent to it (rank_out)"
                            )
                        args.append(local.popleft())
                        continue
                    x = recv(comm, rank, delegate_variable=handle)
                    received = _float_variable(_as_tuple(x))
                    handle = handle if received is None else received
                    args.append(x)
            y = link(*args)
            if ranks_out is None:
                result = y
                continue
            for rank in ranks_out:
                if rank == comm.rank:
                    local.append(y)
                    continue
                ys = _as_tuple(y)
                if handle is not None:
                    ys = pseudo_connect(handle, *ys)
                handle = send(ys if isinstance(y, (tuple, list)) else ys[0], comm, rank)
        if result is None:
            return handle
        if handle is None:
            return result
        joined = pseudo_connect(handle, *_as_tuple(result))
        return joined if isinstance(result, (tuple, list)) else joined[0]
