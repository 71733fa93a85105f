"""``transpose``: permute the axes of a variable without copying.

The implementation is chainer-core's (``Variable.transpose`` and ``Variable.T`` use the same
node); this module gives it Chainer's public path.
"""

from chainer._ops.array_ops import Transpose, transpose

__all__ = ["Transpose", "transpose"]
