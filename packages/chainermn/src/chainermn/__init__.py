"""ChainerMN: multi-node distributed training for Chainer over MPI."""

from chainer._siblings import require_core as _require_core
from chainermn._version import CORE_BELOW as _CORE_BELOW
from chainermn._version import CORE_MINIMUM as _CORE_MINIMUM
from chainermn._version import __version__

_require_core("chainermn", _CORE_MINIMUM, _CORE_BELOW)

from chainermn import communicators  # noqa: E402
from chainermn.communicators import CommunicatorBase, create_communicator  # noqa: E402
from chainermn.optimizers import create_multi_node_optimizer  # noqa: E402

__all__ = [
    "__version__",
    "communicators",
    "CommunicatorBase",
    "create_communicator",
    "create_multi_node_optimizer",
]
