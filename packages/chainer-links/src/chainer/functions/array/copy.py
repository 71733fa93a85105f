"""``copy``: copy a variable to another device (the gradient travels back).

The implementation is chainer-core's (``Variable.to_device`` and friends use it); this module
gives it Chainer's public path.
"""

from chainer._ops.array_ops import Copy, copy

__all__ = ["Copy", "copy"]
