"""``expand_dims``: insert an axis of length one (a reshape, so no copy).

The implementation is chainer-core's; this module gives it Chainer's public path.
"""

from chainer._ops.array_ops import expand_dims

__all__ = ["expand_dims"]
