"""``two_dimensional``: reduce-scatter in the node, allreduce across nodes, allgather back."""

from __future__ import annotations

import numpy
from mpi4py import MPI

from chainermn.communicators import _memory_utility as _mem
from chainermn.communicators._node_aware import NodeAwareCommunicatorBase


class TwoDimensionalCommunicator(NodeAwareCommunicatorBase):
    """Each process of a node owns one shard of the buffer: the node reduce-scatters it, each
    shard is summed across nodes by the processes owning it, and the node allgathers the
    result. Every link carries 1/intra_size of the data. Needs the same number of processes
    on every node.
    """

    def _allreduce_sum(self, buffer: numpy.ndarray) -> None:
        op, datatype = _mem.sum_op_and_type(buffer.dtype)
        parts = self.intra_size
        shard = -(-buffer.size // parts)
        padded = numpy.zeros(shard * parts, buffer.dtype)
        padded[: buffer.size] = buffer
        mine = numpy.empty(shard, buffer.dtype)
        self.intra_mpi_comm.Reduce_scatter_block([padded, datatype], [mine, datatype], op)
        self.inter_mpi_comm.Allreduce(MPI.IN_PLACE, [mine, datatype], op)
        self.intra_mpi_comm.Allgather([mine, datatype], [padded, datatype])
        buffer[...] = padded[: buffer.size]

    def _init_comms(self) -> None:
        super()._init_comms()
        sizes = self.mpi_comm.allgather(self.intra_size)
        if len(set(sizes)) != 1:
            raise ValueError(
                "two_dimensional needs the same number of processes on every node, got "
                f"{sorted(set(sizes))} per node; use 'hierarchical' or 'flat'"
            )
