"""``copy``: copy a variable to another device (the gradient travels back).

The implementation is chainer-core's (``Variable.to_device`` and friends use it); this module
gives it Chainer's public path.
"""

from __future__ import annotations

from chainer._ops.array_ops import Copy
from chainer._ops.array_ops import copy as _core_copy
from chainer.backends import cuda
from chainer.variable import Variable

__all__ = ["Copy", "copy"]


def copy(x, dst) -> Variable:
    """Copy ``x`` to the device ``dst``; the gradient is copied back to ``x``'s device.

    Args:
        x: Input variable or array.
        dst: The destination: a device, a device specifier (``'@numpy'``, ``'@cupy:0'``,
            ...), a CUDA device id (``-1`` for the CPU), or ``cuda.DummyDevice`` (the CPU,
            as in Chainer v7).

    Returns:
        A variable holding a copy of ``x`` on ``dst``.

    Example:
        >>> F.copy(numpy.ones(2, numpy.float32), -1).device
        <CpuDevice (numpy)>
    """
    if dst is cuda.DummyDevice:
        dst = "@numpy"
    return _core_copy(x, dst)
