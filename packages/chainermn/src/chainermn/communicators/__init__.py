"""Communicators and :func:`create_communicator`."""

from __future__ import annotations

import warnings

from chainermn.communicators.communicator_base import CommunicatorBase

__all__ = ["CommunicatorBase", "create_communicator", "COMMUNICATOR_NAMES"]

# name -> (module, class)
_COMMUNICATORS = {
    "naive": ("naive_communicator", "NaiveCommunicator"),
    "flat": ("flat_communicator", "FlatCommunicator"),
    "hierarchical": ("hierarchical_communicator", "HierarchicalCommunicator"),
    "two_dimensional": ("two_dimensional_communicator", "TwoDimensionalCommunicator"),
    "single_node": ("single_node_communicator", "SingleNodeCommunicator"),
    "non_cuda_aware": ("non_cuda_aware_communicator", "NonCudaAwareCommunicator"),
    "pure_nccl": ("pure_nccl_communicator", "PureNcclCommunicator"),
}
COMMUNICATOR_NAMES = tuple(_COMMUNICATORS)
_CPU_FALLBACK = "flat"


class _DefaultName(str):
    """The default name: a plain 'pure_nccl' that remembers it was not chosen explicitly."""


_DEFAULT_NAME = _DefaultName("pure_nccl")


def create_communicator(
    communicator_name: str = _DEFAULT_NAME, mpi_comm=None, **kwargs
) -> CommunicatorBase:
    """Create a ChainerMN communicator over ``mpi_comm`` (``MPI.COMM_WORLD`` by default).

    Args:
        communicator_name: ``'pure_nccl'`` (GPUs, NCCL), ``'flat'``, ``'naive'``,
            ``'hierarchical'``, ``'two_dimensional'``, ``'single_node'`` or
            ``'non_cuda_aware'``. Left at its default on a machine without CUDA, the ``'flat'``
            communicator is used instead and a warning says so; asked for by name, ``'pure_nccl'``
            raises ``RuntimeError`` there.
        mpi_comm: An ``mpi4py.MPI.Comm``.
        allreduce_grad_dtype: dtype gradients are reduced in (``None``, float16, float32 or
            float64).
        batched_copy: Kept for compatibility (gradients are always packed in one copy pass).
        recv_timeout: Seconds a ``recv`` waits for its message before raising
            ``TimeoutError`` naming the peer and tag (default ``None``: wait forever).

    Example:
        Every process of an MPI job runs it, e.g. under ``mpiexec -n 2``; the doctests run in one
        process, so they skip it.

        >>> comm = chainermn.create_communicator("flat")  # doctest: +SKIP
        >>> comm.rank, comm.size  # doctest: +SKIP
        (0, 2)
    """
    from chainer.backends import cuda

    if communicator_name not in _COMMUNICATORS:
        raise ValueError(
            f"unknown communicator name {communicator_name!r}; valid names are "
            f"{', '.join(COMMUNICATOR_NAMES)}"
        )
    if communicator_name is _DEFAULT_NAME and not cuda.available:
        warnings.warn(
            "create_communicator: no CUDA device, so the default 'pure_nccl' communicator "
            f"cannot run; using the '{_CPU_FALLBACK}' communicator (CPU, MPI) instead",
            UserWarning,
            stacklevel=2,
        )
        communicator_name = _CPU_FALLBACK
    unknown = set(kwargs) - {"allreduce_grad_dtype", "batched_copy", "recv_timeout"}
    if unknown:
        raise TypeError(
            f"create_communicator got unexpected keyword arguments {sorted(unknown)}; "
            "accepted: allreduce_grad_dtype, batched_copy, recv_timeout"
        )
    if mpi_comm is None:
        from mpi4py import MPI

        mpi_comm = MPI.COMM_WORLD
    import importlib

    module_name, class_name = _COMMUNICATORS[communicator_name]
    module = importlib.import_module(f"chainermn.communicators.{module_name}")
    communicator = getattr(module, class_name)(mpi_comm)
    for name, value in kwargs.items():
        communicator.set_config(name, value)
    return communicator
