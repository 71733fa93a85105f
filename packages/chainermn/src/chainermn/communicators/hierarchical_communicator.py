"""``hierarchical``: reduce within each node, allreduce among node leaders, broadcast back."""

from __future__ import annotations

import numpy
from mpi4py import MPI

from chainermn.communicators import _memory_utility as _mem
from chainermn.communicators._node_aware import NodeAwareCommunicatorBase


class HierarchicalCommunicator(NodeAwareCommunicatorBase):
    """Three steps: ``Reduce`` to each node's leader, ``Allreduce`` between leaders, ``Bcast``.

    Only one process per node talks across nodes, which suits slow inter-node links.
    """

    def _allreduce_sum(self, buffer: numpy.ndarray) -> None:
        op, datatype = _mem.sum_op_and_type(buffer.dtype)
        intra, leader = self.intra_mpi_comm, self.intra_rank == 0
        if leader:
            intra.Reduce(MPI.IN_PLACE, [buffer, datatype], op, root=0)
            self.inter_mpi_comm.Allreduce(MPI.IN_PLACE, [buffer, datatype], op)
        else:
            intra.Reduce([buffer, datatype], None, op, root=0)
        intra.Bcast([buffer, datatype], root=0)
