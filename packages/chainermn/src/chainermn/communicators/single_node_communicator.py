"""``single_node``: the flat reduction, for jobs on one node only."""

from __future__ import annotations

from chainermn.communicators.mpi_communicator_base import MpiCommunicatorBase


class SingleNodeCommunicator(MpiCommunicatorBase):
    """Flat reduction over shared memory; refuses a job that spans several nodes."""

    def __init__(self, mpi_comm) -> None:
        super().__init__(mpi_comm)
        if self.inter_size != 1:
            raise ValueError(
                f"single_node communicator needs all processes on one node, but the job spans "
                f"{self.inter_size} nodes; use 'hierarchical' or 'flat'"
            )
