"""``naive``: one Allreduce per parameter, no packing (simple; for testing and tiny models)."""

from __future__ import annotations

from chainermn.communicators import _mean_plan, _model_params
from chainermn.communicators.mpi_communicator_base import MpiCommunicatorBase


class NaiveCommunicator(MpiCommunicatorBase):
    """Averages gradients with one ``Allreduce`` per parameter, on any device's arrays."""

    def _mean_grads(self, grads: list, layout: tuple) -> None:
        del layout  # one message per gradient, whatever the layout
        dtype = _model_params.reduce_dtype([g.dtype for g in grads], self.allreduce_grad_dtype)
        for grad in grads:
            if _mean_plan.reducible_in_place(grad, dtype):
                self._mean_buffer(grad.reshape(-1))
            else:
                buffer = _model_params.pack([grad], dtype, self.rank)
                self._mean_buffer(buffer)
                _model_params.unpack(buffer, [grad])
