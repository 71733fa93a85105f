"""``naive``: one Allreduce per parameter, no packing (simple; for testing and tiny models)."""

from __future__ import annotations

from chainermn.communicators.mpi_communicator_base import MpiCommunicatorBase


class NaiveCommunicator(MpiCommunicatorBase):
    """Averages gradients with one ``Allreduce`` per parameter, on any device's arrays."""

    def _mean_grads(self, grads: list, dtype) -> None:
        for grad in grads:
            super()._mean_grads([grad], dtype)
