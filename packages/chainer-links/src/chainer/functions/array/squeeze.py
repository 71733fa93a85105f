"""``squeeze``: remove axes of length one (a reshape, so no copy).

The implementation is chainer-core's; this module gives it Chainer's public path.
"""

from chainer._ops.array_ops import squeeze

__all__ = ["squeeze"]
