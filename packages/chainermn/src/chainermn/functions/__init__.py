"""Differentiable communication between processes, for model-parallel training.

Each function is a :class:`~chainer.FunctionNode` whose backward sends the gradient back the
way the data came (see the "Model Parallel" part of the ChainerMN docs).
"""

from chainermn.functions import (
    batch_normalization,
    collective_communication,
    point_to_point_communication,
)
from chainermn.functions.collective_communication import (
    allgather,
    alltoall,
    bcast,
    gather,
    scatter,
)
from chainermn.functions.point_to_point_communication import recv, send
from chainermn.functions.pseudo_connect import pseudo_connect

__all__ = [
    "allgather",
    "alltoall",
    "batch_normalization",
    "bcast",
    "collective_communication",
    "gather",
    "point_to_point_communication",
    "pseudo_connect",
    "recv",
    "scatter",
    "send",
]
