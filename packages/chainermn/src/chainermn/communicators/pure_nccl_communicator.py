"""``pure_nccl``: gradients reduced on the GPUs with NCCL (CuPy); MPI only for set-up."""

from __future__ import annotations

import numpy

from chainermn import nccl as _nccl_module
from chainermn.communicators import _model_params
from chainermn.communicators.mpi_communicator_base import MpiCommunicatorBase


def _require_nccl():
    nccl = _nccl_module._nccl()
    if nccl is None:
        raise RuntimeError(
            "the 'pure_nccl' communicator needs CUDA GPUs, CuPy and NCCL, and this machine has "
            "no usable CUDA device (chainer.backends.cuda.available is False); use "
            "create_communicator('flat') (or 'naive', 'hierarchical') to train on CPUs"
        )
    return nccl


class PureNcclCommunicator(MpiCommunicatorBase):
    """Packs CuPy gradients into one device buffer and sums it with ``ncclAllReduce``.

    ``allreduce_grad_dtype`` (float16/32/64) sets the dtype on the wire; by default it follows
    ``chainer.config.dtype`` (float32 for float32 configs, float16 otherwise), as in v7.
    """

    def __init__(self, mpi_comm) -> None:
        self._nccl = _require_nccl()
        super().__init__(mpi_comm)
        self.nccl_comm = None

    def _init_comms(self) -> None:
        if self.nccl_comm is not None:
            return
        unique_id = self._nccl.get_unique_id() if self.rank == 0 else None
        unique_id = self.mpi_comm.bcast(unique_id, root=0)
        self.nccl_comm = self._nccl.NcclCommunicator(self.size, unique_id, self.rank)

    def _wire_dtype(self, pairs) -> numpy.dtype:
        import chainer

        if self.allreduce_grad_dtype is not None:
            return numpy.dtype(self.allreduce_grad_dtype)
        return numpy.dtype(
            numpy.float32 if chainer.config.dtype == numpy.float32 else numpy.float16
        )

    def multi_node_mean_grad(self, model, zero_fill: bool = False) -> None:
        """Average the CuPy gradients of ``model`` with one NCCL allreduce."""
        import cupy

        pairs = _model_params.collect_params(model, "grad", zero_fill)
        _model_params.check_same_layout(self.mpi_comm, pairs, "grad", "multi_node_mean_grad")
        if pairs:
            self._mean_on_stream(pairs, cupy.cuda.get_current_stream())
        _model_params.check_finite(pairs, "multi_node_mean_grad")

    def _mean_on_stream(self, pairs: list, stream) -> None:
        """Pack the gradients of ``pairs`` into one device buffer, sum it with NCCL, divide
        and unpack; every step is queued on the CuPy ``stream``."""
        import cupy

        self._init_comms()
        dtype = self._wire_dtype(pairs)
        grads = [p.grad for _, p in pairs]
        with stream:
            buffer = cupy.concatenate([g.reshape(-1).astype(dtype, copy=False) for g in grads])
            self.nccl_comm.allReduce(
                buffer.data.ptr,
                buffer.data.ptr,
                buffer.size,
                _nccl_type(self._nccl, dtype),
                self._nccl.NCCL_SUM,
                stream.ptr,
            )
            buffer *= dtype.type(1.0 / self.size)
            offset = 0
            for g in grads:
                g[...] = buffer[offset : offset + g.size].reshape(g.shape).astype(g.dtype)
                offset += g.size

    def _make_nonblocking_mean(self) -> _NcclNonblockingMean:
        """A gradient average on a CUDA stream of its own (for a double-buffering optimizer)."""
        return _NcclNonblockingMean(self)

    def finalize(self) -> None:
        """Destroy the NCCL communicator."""
        if self.nccl_comm is not None:
            self.nccl_comm.destroy()
            self.nccl_comm = None


_OPERATION = "multi_node_mean_grad (double buffering)"


class _NcclNonblockingMean:
    """Averages a model's CuPy gradients with NCCL on a non-blocking stream of its own, so
    the average overlaps what the current stream does next (forward, backward)."""

    def __init__(self, communicator: PureNcclCommunicator) -> None:
        import cupy

        self.communicator = communicator
        self.stream = cupy.cuda.Stream(non_blocking=True)
        self.pending: list | None = None

    def start(self, model, zero_fill: bool) -> None:
        """Start averaging the gradients of ``model`` on our stream, once the current stream
        has produced them; they must not be touched until :meth:`wait` returns."""
        import cupy

        self.wait()
        comm = self.communicator
        pairs = _model_params.collect_params(model, "grad", zero_fill)
        _model_params.check_same_layout(comm.mpi_comm, pairs, "grad", _OPERATION)
        if pairs:
            self.stream.wait_event(cupy.cuda.get_current_stream().record())
            comm._mean_on_stream(pairs, self.stream)
        self.pending = pairs

    def __del__(self) -> None:
        # Our stream and its memory must outlive the average in flight.
        if self.pending is not None:
            self.stream.synchronize()

    def wait(self) -> None:
        """Block until the average started last (if any) is in the gradients."""
        if self.pending is None:
            return
        pairs, self.pending = self.pending, None
        self.stream.synchronize()
        _model_params.check_finite(pairs, _OPERATION)


def _nccl_type(nccl, dtype: numpy.dtype) -> int:
    types = {
        numpy.dtype(numpy.float16): nccl.NCCL_FLOAT16,
        numpy.dtype(numpy.float32): nccl.NCCL_FLOAT32,
        numpy.dtype(numpy.float64): nccl.NCCL_FLOAT64,
    }
    return types[dtype]
