"""Sub-communicators along the node layout, made on first use and freed by ``finalize``."""

from __future__ import annotations

from mpi4py import MPI

from chainermn.communicators.mpi_communicator_base import MpiCommunicatorBase


class NodeAwareCommunicatorBase(MpiCommunicatorBase):
    """Adds ``intra_mpi_comm`` (this node) and ``inter_mpi_comm`` (same intra rank, all nodes)."""

    _intra_mpi_comm = None
    _inter_mpi_comm = None

    def _init_comms(self) -> None:
        if self._intra_mpi_comm is None:
            self._intra_mpi_comm = self.mpi_comm.Split_type(MPI.COMM_TYPE_SHARED, key=self.rank)
            self._inter_mpi_comm = self.mpi_comm.Split(self.intra_rank, self.inter_rank)

    @property
    def intra_mpi_comm(self):
        self._init_comms()
        return self._intra_mpi_comm

    @property
    def inter_mpi_comm(self):
        self._init_comms()
        return self._inter_mpi_comm

    def finalize(self) -> None:
        """Free the node sub-communicators."""
        for comm in (self._intra_mpi_comm, self._inter_mpi_comm):
            if comm is not None:
                comm.Free()
        self._intra_mpi_comm = self._inter_mpi_comm = None
