"""ChainerMN: multi-node distributed training for Chainer over MPI."""

from chainer._siblings import require_core as _require_core
from chainermn._version import CORE_BELOW as _CORE_BELOW
from chainermn._version import CORE_MINIMUM as _CORE_MINIMUM
from chainermn._version import __version__

_require_core("chainermn", _CORE_MINIMUM, _CORE_BELOW)
