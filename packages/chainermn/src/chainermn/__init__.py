"""ChainerMN: multi-node distributed training for Chainer over MPI."""

from chainer._siblings import require_core as _require_core
from chainermn._version import CORE_BELOW as _CORE_BELOW
from chainermn._version import CORE_MINIMUM as _CORE_MINIMUM
from chainermn._version import __version__

_require_core("chainermn", _CORE_MINIMUM, _CORE_BELOW)

from chainermn import (  # noqa: E402
    communicators,
    datasets,
    extensions,
    functions,
    global_except_hook,
    iterators,
    optimizers,
    testing,
)
from chainermn.communicators import CommunicatorBase, create_communicator  # noqa: E402
from chainermn.datasets import DataSizeError, scatter_dataset, scatter_index  # noqa: E402
from chainermn.extensions import (  # noqa: E402
    create_multi_node_checkpointer,
    create_multi_node_evaluator,
)
from chainermn.optimizers import create_multi_node_optimizer  # noqa: E402

global_except_hook._add_hook_if_enabled()


def __getattr__(name: str):
    # chainermn.links needs the chainer-links distribution: imported on first use only.
    if name in ("links", "MultiNodeChainList"):
        import importlib

        links = importlib.import_module("chainermn.links")
        return links if name == "links" else links.MultiNodeChainList
    raise AttributeError(f"module 'chainermn' has no attribute {name!r}")


__all__ = [
    "__version__",
    "CommunicatorBase",
    "DataSizeError",
    "MultiNodeChainList",
    "communicators",
    "create_communicator",
    "create_multi_node_checkpointer",
    "create_multi_node_evaluator",
    "create_multi_node_optimizer",
    "datasets",
    "extensions",
    "functions",
    "global_except_hook",
    "iterators",
    "optimizers",
    "testing",
    "scatter_dataset",
    "scatter_index",
]
