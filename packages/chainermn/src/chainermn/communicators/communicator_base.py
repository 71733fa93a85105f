"""The interface every ChainerMN communicator implements (``chainermn.CommunicatorBase``)."""

from __future__ import annotations

import abc
import contextlib
from typing import Any


class CommunicatorBase(abc.ABC):
    """Interface of all communicators.

    Methods are named after their MPI counterparts. Those without a suffix move arrays (NumPy,
    CuPy or ChainerX) through the buffer interface; those with the ``_obj`` suffix move any
    picklable Python object. Every process of the communicator must call a collective method
    (``bcast``, ``gather``, ``allreduce``, ``multi_node_mean_grad``, ...) in the same order.

    Example:
        Every process of an MPI job runs it, e.g. under ``mpiexec -n 2``; the doctests run in one
        process, so they skip it.

        >>> comm = chainermn.create_communicator("naive")  # doctest: +SKIP
        >>> comm.allreduce(numpy.ones(3, numpy.float32))  # doctest: +SKIP
        array([2., 2., 2.], dtype=float32)   # under mpiexec -n 2
    """

    def __init__(self) -> None:
        self._configs: dict[str, Any] = {}

    # --- topology -----------------------------------------------------------------------------
    @property
    @abc.abstractmethod
    def rank(self) -> int:
        """Rank (process id in the whole job) of this process."""

    @property
    @abc.abstractmethod
    def size(self) -> int:
        """Number of processes in the communicator."""

    @property
    @abc.abstractmethod
    def intra_rank(self) -> int:
        """Rank of this process among the processes of its node."""

    @property
    @abc.abstractmethod
    def intra_size(self) -> int:
        """Number of processes on this node."""

    @property
    @abc.abstractmethod
    def inter_rank(self) -> int:
        """Index of this process's node among the nodes of the job."""

    @property
    @abc.abstractmethod
    def inter_size(self) -> int:
        """Number of nodes taking part."""

    @abc.abstractmethod
    def split(self, color: int, key: int) -> CommunicatorBase:
        """The processes sharing ``color``, ranked by ``key`` (as MPI_Comm_split)."""

    # --- configuration ------------------------------------------------------------------------
    def set_config(self, name: str, value: Any = True, **kwargs: Any) -> None:
        """Set the configuration ``name`` (see :func:`chainermn.create_communicator`)."""
        raise ValueError(f"unknown configuration name {name!r} for {type(self).__name__}")

    def get_config(self, name: str | None = None) -> Any:
        """The value of configuration ``name``, or a dict of all of them when ``name`` is None."""
        if name is None:
            return dict(self._configs)
        if name not in self._configs:
            raise ValueError(
                f"unknown configuration name {name!r}; known: {sorted(self._configs)}"
            )
        return self._configs[name]

    def __getattr__(self, name: str):
        # Configuration values read as attributes (``comm.batched_copy``), as in v7.
        configs = self.__dict__.get("_configs", {})
        if name in configs:
            return configs[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        # Inside config_scope() attribute assignments are configuration changes.
        if self.__dict__.get("_within_config_scope", False):
            self._configs[name] = value
        else:
            object.__setattr__(self, name, value)

    @property
    def within_config_scope(self) -> bool:
        """True inside :meth:`config_scope`."""
        return getattr(self, "_within_config_scope", False)

    @contextlib.contextmanager
    def config_scope(self):
        """A scope in which configuration changes are expected (kept for compatibility)."""
        old = self.within_config_scope
        object.__setattr__(self, "_within_config_scope", True)
        try:
            yield
        finally:
            object.__setattr__(self, "_within_config_scope", old)

    # --- arrays -------------------------------------------------------------------------------
    @abc.abstractmethod
    def send(self, data, dest: int, tag: int) -> None:
        """Send an array (or a tuple of arrays) to ``dest``."""

    @abc.abstractmethod
    def recv(self, source: int, tag: int):
        """Receive what ``send`` sent from ``source``: an array or a tuple of arrays."""

    @abc.abstractmethod
    def bcast(self, data, max_buf_len=None, root: int = 0):
        """Broadcast an array from ``root``; every rank returns it."""

    @abc.abstractmethod
    def gather(self, data, root: int = 0):
        """Gather one array per rank at ``root`` (a tuple there, None elsewhere)."""

    @abc.abstractmethod
    def scatter(self, xs, root: int = 0):
        """Send ``xs[i]`` from ``root`` to rank ``i``; every rank returns its array."""

    @abc.abstractmethod
    def allgather(self, x):
        """Every rank's array (same shape and dtype everywhere), as a tuple, on every rank."""

    @abc.abstractmethod
    def alltoall(self, xs):
        """Send ``xs[i]`` to rank ``i``; return the tuple of arrays received from each rank."""

    @abc.abstractmethod
    def allreduce(self, data):
        """The element-wise sum of ``data`` over all ranks, on every rank."""

    # --- objects ------------------------------------------------------------------------------
    @abc.abstractmethod
    def send_obj(self, obj, dest: int, tag: int = 0) -> None:
        """Send a picklable object to ``dest``."""

    @abc.abstractmethod
    def recv_obj(self, source: int, tag: int = ..., status=None):
        """Receive an object sent by ``send_obj``."""

    @abc.abstractmethod
    def bcast_obj(self, obj, max_buf_len=None, root: int = 0):
        """Broadcast a picklable object from ``root``."""

    @abc.abstractmethod
    def gather_obj(self, obj, root: int = 0):
        """Gather one object per rank at ``root`` (a list there, None elsewhere)."""

    @abc.abstractmethod
    def allreduce_obj(self, obj):
        """The sum (``+``) of ``obj`` over all ranks, on every rank."""

    # --- models -------------------------------------------------------------------------------
    @abc.abstractmethod
    def bcast_data(self, model) -> None:
        """Overwrite the parameters of ``model`` on every rank with rank 0's."""

    def broadcast_data(self, model) -> None:
        """Alias of :meth:`bcast_data`."""
        self.bcast_data(model)

    @abc.abstractmethod
    def multi_node_mean_grad(self, model, zero_fill: bool = False) -> None:
        """Replace every gradient of ``model`` by its mean over all ranks.

        Args:
            model: The link whose parameters' gradients are averaged.
            zero_fill: Give initialized parameters without a gradient a zero gradient (so a
                link unused on some ranks still takes part). Otherwise they are skipped, and
                must then be skipped on every rank.
        """

    def allreduce_grad(self, model, zero_fill: bool = False) -> None:
        """Deprecated alias of :meth:`multi_node_mean_grad`."""
        self.multi_node_mean_grad(model, zero_fill)

    def finalize(self) -> None:
        """Release resources; the communicator must not be used afterwards."""
        return None  # nothing to release by default
