"""``flat``: all gradients packed into one buffer, reduced by one Allreduce."""

from __future__ import annotations

from chainermn.communicators.mpi_communicator_base import MpiCommunicatorBase


class FlatCommunicator(MpiCommunicatorBase):
    """Packs every gradient into one flat buffer and sums it with a single ``Allreduce``."""
