"""The identity function (the core's own op)."""

from chainer._ops.array_ops import Identity, identity

__all__ = ["Identity", "identity"]
