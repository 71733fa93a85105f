"""``cast``: convert a variable to another dtype (gradients are cast back).

The implementation is chainer-core's; this module gives it Chainer's public path.
"""

from chainer._ops.array_ops import Cast, cast

__all__ = ["Cast", "cast"]
