"""Gradient buckets whose allreduce overlaps with backward (beyond v7; as PyTorch DDP).

The parameters are split, in reverse registration order (roughly the order backward finishes
them), into buckets of about ``bucket_bytes``. A gradient-ready hook in chainer-core's
backward engine tells us when each parameter's gradient is final; once every gradient of a
bucket is in, the bucket is packed and its non-blocking ``Iallreduce`` starts. Buckets start
strictly in plan order, the same on every rank, so the collectives always match. ``update``
flushes the buckets that backward did not complete (unused parameters), waits, and writes the
averages back.
"""

from __future__ import annotations

import weakref

import numpy
from mpi4py import MPI

from chainer import _grad_ready
from chainermn.communicators import _memory_utility as _mem
from chainermn.communicators import _model_params


class _Bucket:
    def __init__(self, params: list, dtype: numpy.dtype) -> None:
        self.params = params
        self.buffer = numpy.empty(sum(p.size for p in params), dtype)
        self.ready: set = set()
        self.request = None


class BucketedGradReducer:
    """Averages gradients bucket by bucket, starting each bucket as soon as it is complete."""

    def __init__(self, communicator, bucket_bytes: int, zero_fill: bool) -> None:
        self.communicator = communicator
        self.bucket_bytes = bucket_bytes
        self.zero_fill = zero_fill
        # A communicator of our own: our non-blocking collectives never interleave with the
        # blocking ones of the main communicator (e.g. a layout check on another rank).
        self.mpi_comm = communicator.mpi_comm.Dup()
        self.buckets: list[_Bucket] = []
        self.bucket_of: dict = {}
        self.next_to_start = 0
        self.stale = False
        self._hook = _weak_hook(weakref.ref(self))
        _grad_ready.add_grad_ready_hook(self._hook)

    def plan(self, target) -> None:
        """Split ``target``'s parameters into buckets (after the parameters were broadcast)."""
        pairs = [(n, p) for n, p in target.namedparams(include_uninit=False)][::-1]
        _model_params.check_same_layout(
            self.communicator.mpi_comm, pairs, "array", "bucketed optimizer set-up"
        )
        dtype = numpy.dtype(
            self.communicator.get_config("allreduce_grad_dtype")
            or numpy.result_type(numpy.float32, *[p.dtype for _, p in pairs])
        )
        self.buckets, self.bucket_of, current, size = [], {}, [], 0
        for _, param in pairs:
            current.append(param)
            size += param.size * dtype.itemsize
            if size >= self.bucket_bytes:
                self.buckets.append(_Bucket(current, dtype))
                current, size = [], 0
        if current:
            self.buckets.append(_Bucket(current, dtype))
        for index, bucket in enumerate(self.buckets):
            for param in bucket.params:
                self.bucket_of[id(param)] = (index, weakref.ref(param))
        self.start_step()

    def start_step(self) -> None:
        """Forget the previous step (called before backward)."""
        self._wait_all()
        for bucket in self.buckets:
            bucket.ready.clear()
        self.next_to_start = 0
        self.stale = False

    def _on_grad_ready(self, variable) -> None:
        entry = self.bucket_of.get(id(variable))
        if entry is None or entry[1]() is not variable:
            return  # not ours (an id may be reused by another object)
        index = entry[0]
        bucket = self.buckets[index]
        if index < self.next_to_start or id(variable) in bucket.ready:
            self.stale = True  # a second backward before update: reduce at update instead
            return
        bucket.ready.add(id(variable))
        while self.next_to_start < len(self.buckets):
            candidate = self.buckets[self.next_to_start]
            if len(candidate.ready) < len(candidate.params):
                break
            self._start(candidate)

    def _start(self, bucket: _Bucket) -> None:
        offset = 0
        for param in bucket.params:
            grad = param.grad
            chunk = bucket.buffer[offset : offset + param.size]
            if grad is None:
                chunk[...] = 0
            else:
                chunk[...] = _mem.to_host(grad, "a gradient", self.communicator.rank).reshape(-1)
            offset += param.size
        op, datatype = _mem.sum_op_and_type(bucket.buffer.dtype)
        bucket.request = self.mpi_comm.Iallreduce(MPI.IN_PLACE, [bucket.buffer, datatype], op)
        self.next_to_start += 1

    def _wait_all(self) -> None:
        requests = [b.request for b in self.buckets if b.request is not None]
        if requests:
            MPI.Request.Waitall(requests)
        for bucket in self.buckets:
            bucket.request = None

    def finish_step(self, target) -> None:
        """Start what backward did not, wait for every bucket, write the means into ``grad``."""
        # Every rank starts every bucket exactly once per step, so the waits always match.
        while self.next_to_start < len(self.buckets):
            self._start(self.buckets[self.next_to_start])
        self._wait_all()
        pairs = _model_params.collect_params(target, "grad", self.zero_fill)
        # One small collective both checks the models and tells whether any rank is stale.
        stale = _model_params.check_same_layout(
            self.communicator.mpi_comm,
            pairs,
            "grad",
            "multi_node_mean_grad (bucketed)",
            flag=self.stale,
        )
        if stale:
            # Some rank ran backward twice since its last update: the buckets hold partial
            # sums, so reduce the final gradients the plain way instead.
            self.communicator.multi_node_mean_grad(target, self.zero_fill)
            self.start_step()
            return
        for bucket in self.buckets:
            scale = bucket.buffer.dtype.type(1.0 / self.communicator.size)
            offset = 0
            for param in bucket.params:
                if param.grad is not None:
                    chunk = bucket.buffer[offset : offset + param.size]
                    _model_params.unpack(chunk, [param.grad], scale)  # divided on the way
                offset += param.size
        _model_params.check_finite(pairs, "multi_node_mean_grad")
        self.start_step()

    def close(self) -> None:
        """Stop listening to backward and free our communicator."""
        self._wait_all()
        _grad_ready.remove_grad_ready_hook(self._hook)
        self.mpi_comm.Free()


def _weak_hook(reducer_ref):
    """A grad-ready hook that does not keep its reducer alive and leaves with it."""

    def hook(variable) -> None:
        reducer = reducer_ref()
        if reducer is None:
            _grad_ready.remove_grad_ready_hook(hook)
        else:
            reducer._on_grad_ready(variable)

    return hook
