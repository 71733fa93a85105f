"""A gradient average that runs in the background (the second buffer set of double buffering).

:meth:`NonblockingMean.start` packs the gradients of a model by the same plan as the blocking
``multi_node_mean_grad`` (:mod:`._mean_plan`), but into message buffers of its own, and starts
one non-blocking ``Iallreduce`` per message on a duplicate of the communicator, so it never
interleaves with the blocking collectives of the main one. :meth:`NonblockingMean.wait`
waits for them and writes the means back. Every MPI communicator averages this way (a flat
sum over all ranks, whatever its blocking algorithm).
"""

from __future__ import annotations

from mpi4py import MPI

from chainermn.communicators import _mean_plan, _model_params
from chainermn.communicators import _memory_utility as _mem

_OPERATION = "multi_node_mean_grad (double buffering)"


class NonblockingMean:
    """Averages a model's gradients over ``communicator``'s ranks in the background."""

    def __init__(self, communicator) -> None:
        self.communicator = communicator
        self.mpi_comm = communicator.mpi_comm.Dup()
        self.plans: dict = {}
        self.pending: tuple | None = None

    def start(self, model, zero_fill: bool) -> None:
        """Start averaging the gradients of ``model`` (checked across the ranks first); they
        must not be touched until :meth:`wait` returns."""
        self.wait()
        comm = self.communicator
        pairs = _model_params.collect_params(model, "grad", zero_fill)
        grads = [p.grad for _, p in pairs]
        layout, _, _ = _model_params.agree_on_layout(
            comm.mpi_comm, [name for name, _ in pairs], grads, _OPERATION
        )
        requests, messages, scale = [], [], None
        if pairs:
            plan = _mean_plan.cached(self.plans, layout, comm.allreduce_grad_dtype, comm.size)
            op, datatype = _mem.sum_op_and_type(plan.dtype)
            scale = plan.scale
            for buffer, finish in plan.messages(grads, comm.rank):
                requests.append(self.mpi_comm.Iallreduce(MPI.IN_PLACE, [buffer, datatype], op))
                messages.append((buffer, finish))
        self.pending = (requests, messages, scale, pairs)

    def __del__(self) -> None:
        # MPI writes into the buffers until the requests complete: they must outlive them.
        if self.pending is not None and not MPI.Is_finalized():
            MPI.Request.Waitall(self.pending[0])

    def wait(self) -> None:
        """Wait for the average started last (if any) and write it into the gradients."""
        if self.pending is None:
            return
        requests, messages, scale, pairs = self.pending
        self.pending = None
        MPI.Request.Waitall(requests)
        for buffer, finish in messages:
            if finish is None:  # a piece of a gradient reduced in place
                buffer *= scale
            else:
                finish()
        _model_params.check_finite(pairs, _OPERATION)
