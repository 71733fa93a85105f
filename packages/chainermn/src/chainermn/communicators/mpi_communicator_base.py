"""``MpiCommunicatorBase``: every communicator method on an mpi4py communicator.

Arrays travel through the buffer interface (a small pickled header with shape and dtype, then
the raw bytes); objects are pickled and sent in chunks. Before each collective the ranks
exchange what they are about to send, so a rank with a wrong shape, dtype or argument makes
every rank raise the same error instead of hanging. Concrete communicators differ only in
:meth:`_allreduce_sum`, how a flat gradient buffer is summed.
"""

from __future__ import annotations

import time

import numpy
from mpi4py import MPI

from chainermn.communicators import _communication_utility as _comm_util
from chainermn.communicators import _mean_plan, _model_params, _nonblocking_mean
from chainermn.communicators import _memory_utility as _mem
from chainermn.communicators.communicator_base import CommunicatorBase

_ALLREDUCE_DTYPES = (None, numpy.float16, numpy.float32, numpy.float64)


class MpiCommunicatorBase(CommunicatorBase):
    """Communicator over ``mpi_comm`` (an ``mpi4py.MPI.Comm``); see :class:`CommunicatorBase`."""

    def __init__(self, mpi_comm) -> None:
        super().__init__()
        if not isinstance(mpi_comm, MPI.Comm):
            raise TypeError(f"mpi_comm must be an mpi4py.MPI.Comm, got {_mem.describe(mpi_comm)}")
        self.mpi_comm = mpi_comm
        ranks = _comm_util.init_ranks(mpi_comm)
        self._rank, self._intra_rank, self._intra_size = ranks[:3]
        self._inter_rank, self._inter_size = ranks[3:]
        self._size = mpi_comm.Get_size()
        self._configs = {"batched_copy": True, "allreduce_grad_dtype": None, "recv_timeout": None}
        self._timed_mean: tuple | None = None  # (MeanChoice, ns) of the previous average

    # --- topology -----------------------------------------------------------------------------
    rank = property(lambda self: self._rank, doc="Rank of this process.")
    size = property(lambda self: self._size, doc="Number of processes.")
    intra_rank = property(lambda self: self._intra_rank, doc="Rank within this node.")
    intra_size = property(lambda self: self._intra_size, doc="Processes on this node.")
    inter_rank = property(lambda self: self._inter_rank, doc="Index of this node.")
    inter_size = property(lambda self: self._inter_size, doc="Number of nodes.")

    def split(self, color: int, key: int) -> MpiCommunicatorBase:
        """A communicator of the same class over ``mpi_comm.Split(color, key)``."""
        sub = type(self).__new__(type(self))
        MpiCommunicatorBase.__init__(sub, self.mpi_comm.Split(color, key))
        sub._configs = dict(self._configs)
        return sub

    # --- configuration ------------------------------------------------------------------------
    def set_config(self, name: str, value=True, **kwargs) -> None:
        """``batched_copy`` (bool), ``allreduce_grad_dtype`` (None, float16/32/64) or
        ``recv_timeout`` (None: wait forever, the default; or seconds, > 0)."""
        if kwargs:
            raise TypeError(f"set_config got unexpected keyword arguments {sorted(kwargs)}")
        if name == "batched_copy":
            self._configs[name] = bool(value)
        elif name == "recv_timeout":
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0
            ):
                raise ValueError(f"recv_timeout must be None or seconds > 0, got {value!r}")
            self._configs[name] = value
        elif name == "allreduce_grad_dtype":
            if value is not None and numpy.dtype(value) not in _ALLREDUCE_DTYPES[1:]:
                raise ValueError(
                    "allreduce_grad_dtype must be None, numpy.float16, numpy.float32 or "
                    f"numpy.float64, got {value!r}"
                )
            self._configs[name] = value
        else:
            raise ValueError(
                f"unknown configuration name {name!r}; known: {sorted(self._configs)}"
            )

    @property
    def allreduce_grad_dtype(self):
        """The configured dtype gradients are reduced in (``None``: the model's, >= float32)."""
        return self._configs["allreduce_grad_dtype"]

    # --- helpers ------------------------------------------------------------------------------
    def _agree(self, mine, operation: str) -> list:
        """Allgather ``mine`` (a header or an error string); raise everywhere on any error."""
        everyone = self.mpi_comm.allgather(mine)
        for rank, item in enumerate(everyone):
            if isinstance(item, str):
                raise ValueError(f"{operation}: rank {rank}: {item}")
        return everyone

    def _host_or_error(self, array, what: str):
        try:
            return _mem.to_host(array, what, self.rank), None
        except TypeError as error:
            return None, str(error).split(": ", 1)[1]

    @staticmethod
    def _header(host: numpy.ndarray) -> tuple:
        return (host.shape, host.dtype.str)

    # --- point to point -----------------------------------------------------------------------
    def send(self, data, dest: int, tag: int) -> None:
        """Send an array or a tuple/list of arrays (any shapes and dtypes) to ``dest``."""
        arrays = list(data) if isinstance(data, (tuple, list)) else [data]
        hosts = []
        for i, a in enumerate(arrays):
            host, error = self._host_or_error(a, f"send data[{i}]")
            if error is not None:
                # Tell the receiver, so that it raises too instead of waiting forever.
                self.mpi_comm.send(error, dest=dest, tag=tag)
                raise TypeError(f"rank {self.rank}: {error}")
            hosts.append(host)
        headers = [self._header(h) for h in hosts]
        self.mpi_comm.send((isinstance(data, (tuple, list)), headers), dest=dest, tag=tag)
        for host in hosts:
            self.mpi_comm.Send(_mem.byte_view(host), dest=dest, tag=tag)

    def recv(self, source: int, tag: int):
        """Receive what :meth:`send` sent: an array, or a tuple of arrays.

        With the ``recv_timeout`` configuration set (seconds), a message that does not start
        arriving in time raises ``TimeoutError`` naming the peer rank and the tag.
        """
        self._wait_for_message(source, tag)
        message = self.mpi_comm.recv(source=source, tag=tag)
        if isinstance(message, str):
            raise ValueError(f"recv from rank {source}: the sender failed: {message}")
        is_tuple, headers = message
        arrays = []
        for shape, dtype in headers:
            out = numpy.empty(shape, dtype)
            self.mpi_comm.Recv(_mem.byte_view(out), source=source, tag=tag)
            arrays.append(out)
        return tuple(arrays) if is_tuple else arrays[0]

    def _wait_for_message(self, source: int, tag: int) -> None:
        timeout = self._configs["recv_timeout"]
        if timeout is None:
            return
        deadline = time.monotonic() + timeout
        pause = 1e-4
        while not self.mpi_comm.Iprobe(source=source, tag=tag):
            if time.monotonic() >= deadline:
                raise TimeoutError(
                    f"rank {self.rank}: recv from rank {source} with tag {tag}: nothing "
                    f"arrived within {timeout} s (recv_timeout); rank {source} must call "
                    f"send(..., rank={self.rank}, tag={tag}) (in backward: the recv that "
                    "matches a send must be part of the peer's graph)"
                )
            time.sleep(pause)
            pause = min(pause * 2, 0.01)

    # --- collectives on arrays ----------------------------------------------------------------
    def bcast(self, data, max_buf_len=None, root: int = 0):
        """Broadcast ``data`` from ``root``; other ranks may pass ``None``."""
        if self.rank == root:
            host, error = self._host_or_error(data, "bcast data")
            header = error if error is not None else self._header(host)
        else:
            host, header = None, None
        header = self.mpi_comm.bcast(header, root=root)
        if isinstance(header, str):
            raise ValueError(f"bcast: rank {root} (root): {header}")
        if self.rank != root:
            host = numpy.empty(header[0], header[1])
        chunk = _comm_util.check_max_buf_len(max_buf_len)
        flat = host.reshape(-1).view(numpy.uint8)
        for start in range(0, max(flat.size, 1), chunk):
            self.mpi_comm.Bcast([flat[start : start + chunk], MPI.BYTE], root=root)
        return _mem.like(host, data) if self.rank == root else host

    def gather(self, data, root: int = 0):
        """Every rank's array at ``root`` as a tuple (shapes may differ); None elsewhere."""
        host, error = self._host_or_error(data, "gather data")
        headers = self._agree(error or self._header(host), "gather")
        self._check_one_dtype(headers, "gather")
        sizes = [int(numpy.prod(shape)) * numpy.dtype(dt).itemsize for shape, dt in headers]
        if self.rank != root:
            self.mpi_comm.Gatherv(_mem.byte_view(host), None, root=root)
            return None
        out = numpy.empty(sum(sizes), numpy.uint8)
        self.mpi_comm.Gatherv(_mem.byte_view(host), [out, sizes, MPI.BYTE], root=root)
        return tuple(self._split_bytes(out, headers, sizes))

    def scatter(self, xs, root: int = 0):
        """Rank ``i`` receives ``xs[i]`` from ``root`` (only root's ``xs`` is read)."""
        hosts, message = None, None
        if self.rank == root:
            if not isinstance(xs, (tuple, list)) or len(xs) != self.size:
                got = len(xs) if isinstance(xs, (tuple, list)) else _mem.describe(xs)
                message = f"xs must be a tuple or list of {self.size} arrays, got {got}"
            else:
                hosts = []
                for i, x in enumerate(xs):
                    host, message = self._host_or_error(x, f"scatter xs[{i}]")
                    if message is not None:
                        break
                    hosts.append(host)
            if message is None:
                message = [self._header(h) for h in hosts]
        headers = self.mpi_comm.bcast(message, root=root)
        if isinstance(headers, str):
            raise ValueError(f"scatter: rank {root} (root): {headers}")
        shape, dtype = headers[self.rank]
        out = numpy.empty(shape, dtype)
        if self.rank == root:
            sizes = [h.nbytes for h in hosts]
            send = numpy.concatenate([h.reshape(-1).view(numpy.uint8) for h in hosts])
            self.mpi_comm.Scatterv([send, sizes, MPI.BYTE], _mem.byte_view(out), root=root)
            return _mem.like(out, xs[root])
        self.mpi_comm.Scatterv(None, _mem.byte_view(out), root=root)
        return out

    def allgather(self, x):
        """Every rank's ``x`` as a tuple (one dtype on all ranks; shapes may differ)."""
        host, error = self._host_or_error(x, "allgather x")
        headers = self._agree(error or self._header(host), "allgather")
        self._check_one_dtype(headers, "allgather")
        sizes = [int(numpy.prod(shape)) * numpy.dtype(dt).itemsize for shape, dt in headers]
        out = numpy.empty(sum(sizes), numpy.uint8)
        self.mpi_comm.Allgatherv(_mem.byte_view(host), [out, sizes, MPI.BYTE])
        return tuple(_mem.like(y, x) for y in self._split_bytes(out, headers, sizes))

    def alltoall(self, xs):
        """Send ``xs[i]`` to rank ``i``; returns the tuple of arrays received from each rank."""
        error, hosts = None, []
        if not isinstance(xs, (tuple, list)) or len(xs) != self.size:
            got = len(xs) if isinstance(xs, (tuple, list)) else _mem.describe(xs)
            error = f"xs must be a tuple or list of {self.size} arrays, got {got}"
        else:
            for i, x in enumerate(xs):
                host, error = self._host_or_error(x, f"alltoall xs[{i}]")
                if error is not None:
                    break
                hosts.append(host)
        headers = self._agree(error or [self._header(h) for h in hosts], "alltoall")
        incoming = [headers[source][self.rank] for source in range(self.size)]
        send_sizes = [h.nbytes for h in hosts]
        recv_sizes = [int(numpy.prod(s)) * numpy.dtype(d).itemsize for s, d in incoming]
        send = numpy.concatenate([h.reshape(-1).view(numpy.uint8) for h in hosts])
        out = numpy.empty(sum(recv_sizes), numpy.uint8)
        self.mpi_comm.Alltoallv([send, send_sizes, MPI.BYTE], [out, recv_sizes, MPI.BYTE])
        return tuple(_mem.like(y, xs[0]) for y in self._split_bytes(out, incoming, recv_sizes))

    def allreduce(self, data):
        """The element-wise sum of ``data`` (same shape and dtype on all ranks)."""
        host, error = self._host_or_error(data, "allreduce data")
        headers = self._agree(error or self._header(host), "allreduce")
        self._check_same_headers(headers, "allreduce")
        out = numpy.empty_like(host)
        op, datatype = _mem.sum_op_and_type(host.dtype)
        self.mpi_comm.Allreduce([host, datatype], [out, datatype], op)
        return _mem.like(out, data)

    @staticmethod
    def _split_bytes(flat: numpy.ndarray, headers: list, sizes: list) -> list:
        arrays, offset = [], 0
        for (shape, dtype), size in zip(headers, sizes):
            arrays.append(flat[offset : offset + size].view(dtype).reshape(shape))
            offset += size
        return arrays

    @staticmethod
    def _check_same_headers(headers: list, operation: str) -> None:
        for rank, header in enumerate(headers):
            if header != headers[0]:
                raise ValueError(
                    f"{operation}: every rank must pass the same shape and dtype; rank 0 has "
                    f"shape {headers[0][0]} dtype {numpy.dtype(headers[0][1])}, rank {rank} "
                    f"has shape {header[0]} dtype {numpy.dtype(header[1])}"
                )

    @staticmethod
    def _check_one_dtype(headers: list, operation: str) -> None:
        for rank, header in enumerate(headers):
            if header[1] != headers[0][1]:
                raise ValueError(
                    f"{operation}: every rank must pass the same dtype; rank 0 has "
                    f"{numpy.dtype(headers[0][1])}, rank {rank} has {numpy.dtype(header[1])}"
                )

    # --- objects ------------------------------------------------------------------------------
    def send_obj(self, obj, dest: int, tag: int = 0) -> None:
        """Send a picklable object (any size) to ``dest``."""
        _comm_util.chunked_send_obj(obj, self.mpi_comm, dest, tag)

    def recv_obj(self, source: int = MPI.ANY_SOURCE, tag: int = MPI.ANY_TAG, status=None):
        """Receive an object sent by :meth:`send_obj` (``status`` gets source and tag)."""
        return _comm_util.chunked_recv_obj(self.mpi_comm, source, tag, status)

    def bcast_obj(self, obj, max_buf_len=None, root: int = 0):
        """Broadcast a picklable object from ``root`` in chunks of ``max_buf_len`` bytes."""
        return _comm_util.chunked_bcast_obj(obj, self.mpi_comm, max_buf_len, root)

    def gather_obj(self, obj, root: int = 0):
        """Every rank's object, in rank order, at ``root``; None elsewhere."""
        return _comm_util.chunked_gather_obj(obj, self.mpi_comm, root)

    def allreduce_obj(self, obj):
        """``obj`` summed with ``+`` over all ranks (in rank order), on every rank."""
        gathered = self.gather_obj(obj, root=0)
        total = None
        if self.rank == 0:
            total = gathered[0]
            for other in gathered[1:]:
                total = total + other
        return self.bcast_obj(total, root=0)

    # --- models -------------------------------------------------------------------------------
    def bcast_data(self, model) -> None:
        """Overwrite every initialized parameter of ``model`` with rank 0's values."""
        pairs = _model_params.collect_params(model, "array")
        _model_params.check_same_layout(self.mpi_comm, pairs, "array", "bcast_data")
        for dtype in sorted({p.array.dtype.str for _, p in pairs}):
            arrays = [p.array for _, p in pairs if p.array.dtype.str == dtype]
            buffer = _model_params.pack(arrays, numpy.dtype(dtype), self.rank)
            self.mpi_comm.Bcast(_mem.byte_view(buffer), root=0)
            _model_params.unpack(buffer, arrays)

    def multi_node_mean_grad(self, model, zero_fill: bool = False) -> None:
        """Average the gradients of ``model`` over all ranks (see :class:`CommunicatorBase`)."""
        pairs = _model_params.collect_params(model, "grad", zero_fill)
        names = [name for name, _ in pairs]
        grads = [p.grad for _, p in pairs]
        timed, self._timed_mean = self._timed_mean, None
        layout, _, slowest = _model_params.agree_on_layout(
            self.mpi_comm, names, grads, "multi_node_mean_grad", report=timed[1] if timed else 0
        )
        if timed:
            timed[0].record(slowest * 1e-9)
        if pairs:
            self._mean_grads(grads, layout)
        _model_params.check_finite(pairs, "multi_node_mean_grad")

    def _mean_grads(self, grads: list, layout: tuple) -> None:
        """Sum ``grads`` (of the agreed ``layout``) over the ranks and divide them, by the
        plan of the layout (see :mod:`._mean_plan`; kept for the few layouts seen last), with
        the reduction its :mod:`._mean_choice` picks, timed for the next call's choice."""
        plans = self.__dict__.setdefault("_mean_plans", {})
        plan = _mean_plan.cached(plans, layout, self.allreduce_grad_dtype, self.size)
        choice = plan.mean_choice
        if choice is None:
            plan.run(grads, self._allreduce_sum, self.rank)
            return
        start = time.perf_counter_ns()
        if choice.next():
            plan.run(grads, self._allreduce_mean_of_two, self.rank, averaged=True)
        else:
            plan.run(grads, self._allreduce_sum, self.rank)
        self._timed_mean = (choice, time.perf_counter_ns() - start)

    def _make_nonblocking_mean(self) -> _nonblocking_mean.NonblockingMean:
        """A gradient average that runs in the background, with buffers of its own (the
        second buffer set of a double-buffering optimizer)."""
        return _nonblocking_mean.NonblockingMean(self)

    def _mean_buffer(self, buffer: numpy.ndarray) -> None:
        self._allreduce_sum(buffer)
        buffer *= buffer.dtype.type(1.0 / self.size)

    def _allreduce_sum(self, buffer: numpy.ndarray) -> None:
        """Sum the flat host ``buffer`` over all ranks, in place (one flat Allreduce)."""
        op, datatype = _mem.sum_op_and_type(buffer.dtype)
        self.mpi_comm.Allreduce(MPI.IN_PLACE, [buffer, datatype], op)

    def _allreduce_mean_of_two(self, buffer: numpy.ndarray) -> None:
        """Average the flat host float ``buffer`` over the two ranks, in place (one flat
        Allreduce with NumPy's mean, see :mod:`._mean_choice`)."""
        op, datatype = _mem.mean_of_two_op_and_type(buffer.dtype)
        self.mpi_comm.Allreduce(MPI.IN_PLACE, [buffer, datatype], op)

    def finalize(self) -> None:
        """Nothing to release for the MPI communicators (sub-communicators free themselves)."""
