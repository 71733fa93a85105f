"""``reshape``: change the shape of a variable without copying.

The implementation is chainer-core's (``Variable.reshape`` uses the same node); this module gives
it Chainer's public path.
"""

from chainer._ops.array_ops import Reshape, reshape

__all__ = ["Reshape", "reshape"]
