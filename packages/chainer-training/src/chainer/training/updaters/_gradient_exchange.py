"""How the processes of a MultiprocessParallelUpdater sum gradients and share parameters.

Process 0 (the master) owns the optimizer. Every step, each process computes the gradients
of its own batch; :meth:`reduce_grads` sums them into the master's model, the master updates,
and :meth:`bcast_params` copies the new parameters to every other process.

Two implementations share that interface: :class:`PipeExchange` sends NumPy arrays through the
processes' control pipes (any device, used for CPU devices), :class:`NcclExchange` runs NCCL
collectives on flat GPU buffers (CUDA devices).
"""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend
from chainer.backends import cuda


def params_in_order(model: Any) -> list:
    """The parameters of ``model`` in an order that is the same in every process."""
    # namedparams() visits links in a fixed order, the same in every process.
    return [param for _, param in sorted(model.namedparams(), key=lambda item: item[0])]


def receive(
    pipe: Any, sender: str, *expected: str, timeout: float | None = None
) -> tuple[str, Any]:
    """Receive a ``(kind, payload)`` message of one of the ``expected`` kinds.

    Raises:
        RuntimeError: The peer died (its end of the pipe is closed), reported a failure, sent
            a message of another kind, or sent nothing for ``timeout`` seconds.
    """
    if timeout is not None and not pipe.poll(timeout):
        raise RuntimeError(
            f"{sender} sent nothing for {timeout} seconds: it is stalled (a dataset or a "
            "model that hangs?) or too slow for worker_timeout"
        )
    try:
        kind, payload = pipe.recv()
    except EOFError:
        raise RuntimeError(f"{sender} exited unexpectedly (its pipe was closed)") from None
    if kind == "error":
        raise RuntimeError(f"{sender} failed:\n{payload}")
    if kind not in expected:
        raise RuntimeError(
            f"expected a {' or '.join(expected)} message from {sender}, got {kind!r}"
        )
    return kind, payload


class PipeExchange:
    """Gradient sum and parameter broadcast through pipes, with NumPy arrays.

    Args:
        pipes: The master's ends of the workers' pipes (master), or the worker's own end.
        is_master: Whether this is process 0.
        timeout: Seconds the master waits for a worker's gradients (``None``: no limit).
    """

    def __init__(self, pipes: list, is_master: bool, timeout: float | None = None) -> None:
        self._pipes = pipes
        self._is_master = is_master
        self._timeout = timeout

    def reduce_grads(self, model: Any) -> None:
        """Master: add every worker's gradients to the model's. Worker: send its gradients."""
        params = params_in_order(model)
        if not self._is_master:
            self._pipes[0].send(("grads", [_to_host(p.grad) for p in params]))
            return
        for rank, pipe in enumerate(self._pipes, start=1):
            _, grads = receive(pipe, f"worker process {rank}", "grads", timeout=self._timeout)
            for param, grad in zip(params, grads):
                if grad is None:
                    continue
                grad = param.device.send(grad)
                if param.grad is None:
                    param.grad = grad
                else:
                    param.grad += grad

    def bcast_params(self, model: Any) -> None:
        """Master: send the parameters. Worker: receive them into its model."""
        params = params_in_order(model)
        if self._is_master:
            arrays = [_to_host(p.array) for p in params]
            for pipe in self._pipes:
                pipe.send(("params", arrays))
            return
        _, arrays = receive(self._pipes[0], "the master process", "params")
        for param, array in zip(params, arrays):
            if param.array is None:
                param.initialize(array.shape)
            backend.copyto(param.array, array)


def _to_host(array: Any) -> numpy.ndarray | None:
    return None if array is None else backend.CpuDevice().send(array)


def nccl_module() -> Any:
    """CuPy's NCCL binding when CUDA and NCCL are available, else ``None``."""
    if not cuda.available:
        return None
    try:
        from cupy.cuda import nccl
    except ImportError:
        return None
    return nccl if getattr(nccl, "available", True) else None


class NcclExchange:
    """Gradient sum and parameter broadcast with NCCL over flat device buffers.

    Args:
        n_processes: The number of processes (one per GPU).
        comm_id: The NCCL unique id made by the master.
        rank: This process's rank (0 is the master).
    """

    def __init__(self, n_processes: int, comm_id: Any, rank: int) -> None:
        self._nccl = nccl_module()
        self._comm = self._nccl.NcclCommunicator(n_processes, comm_id, rank)

    def _dtype(self, dtype: numpy.dtype) -> int:
        table = {
            numpy.dtype(numpy.float16): self._nccl.NCCL_FLOAT16,
            numpy.dtype(numpy.float32): self._nccl.NCCL_FLOAT32,
            numpy.dtype(numpy.float64): self._nccl.NCCL_FLOAT64,
        }
        return table[numpy.dtype(dtype)]

    def reduce_grads(self, model: Any) -> None:
        """Sum the gradients of every process into the master's (rank 0)."""
        params = params_in_order(model)
        flat = flatten(params, "grad")
        stream = cuda.Stream.null.ptr
        self._comm.reduce(
            flat.data.ptr,
            flat.data.ptr,
            flat.size,
            self._dtype(flat.dtype),
            self._nccl.NCCL_SUM,
            0,
            stream,
        )
        unflatten(flat, params, "grad")

    def bcast_params(self, model: Any) -> None:
        """Copy the master's parameters to every process."""
        params = params_in_order(model)
        flat = flatten(params, "array")
        self._comm.bcast(
            flat.data.ptr, flat.size, self._dtype(flat.dtype), 0, cuda.Stream.null.ptr
        )
        unflatten(flat, params, "array")


def flatten(params: list, attribute: str) -> Any:
    """Concatenate the ``attribute`` (``'array'`` or ``'grad'``) of GPU ``params`` into one
    flat CuPy array; a missing gradient counts as zeros."""
    xp = cuda.cupy
    return xp.concatenate(
        [
            getattr(p, attribute).ravel()
            if getattr(p, attribute) is not None
            else xp.zeros(p.size, p.dtype)
            for p in params
        ]
    )


def unflatten(flat: Any, params: list, attribute: str) -> None:
    """Copy consecutive chunks of ``flat`` into the ``attribute`` of each of ``params``."""
    offset = 0
    for param in params:
        size = param.size
        chunk = flat[offset : offset + size].reshape(param.shape)
        target = getattr(param, attribute)
        if target is None:
            setattr(param, attribute, chunk.copy())
        else:
            target[...] = chunk
        offset += size
