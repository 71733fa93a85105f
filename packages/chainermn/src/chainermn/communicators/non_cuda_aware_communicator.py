"""``non_cuda_aware``: for an MPI without CUDA support; gradients are staged on the host."""

from __future__ import annotations

from chainermn.communicators.hierarchical_communicator import HierarchicalCommunicator


class NonCudaAwareCommunicator(HierarchicalCommunicator):
    """Node-local reduction, then MPI between nodes on host buffers.

    v7 reduced within a node with NCCL; here every array is copied to the host before MPI
    sees it (as all CPU communicators do), so the node-local step is an MPI reduction.
    """
