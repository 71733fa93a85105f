"""``depth2space``: move channel blocks into spatial blocks (sub-pixel upsampling)."""

from __future__ import annotations

import importlib

from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable

# The two modules use each other. import_module returns the module even while it is still
# loading, and even though the package binds the name 'space2depth' to the function.
_space2depth = importlib.import_module("chainer.functions.array.space2depth")

__all__ = ["Depth2Space", "depth2space"]


def check_ratio(r) -> int:
    """Return ``r`` if it is a positive int; raise otherwise (shared with ``space2depth``)."""
    if not isinstance(r, int) or isinstance(r, bool):
        raise TypeError(f"r must be an int, got {type(r).__name__}: {r!r}")
    if r <= 0:
        raise ValueError(f"r must be positive, got {r}")
    return r


class Depth2Space(FunctionNode):
    """``(n, c * r * r, h, w) -> (n, c, h * r, w * r)``; the inverse is :class:`Space2Depth`."""

    def __init__(self, r: int) -> None:
        self.r = check_ratio(r)

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("X",))
        x_type = in_types[0]
        type_check.expect(x_type.dtype.kind == "f", x_type.ndim == 4)
        type_check.expect(x_type.shape[1] % (self.r * self.r) == 0)

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        r = self.r
        n, c, h, w = x.shape
        c //= r * r
        # Channel (i * r + j) * c + k feeds pixel (y * r + i, x * r + j) of output channel k.
        y = x.reshape(n, r, r, c, h, w).transpose(0, 3, 4, 1, 5, 2).reshape(n, c, h * r, w * r)
        return (y,)

    forward_chainerx = forward  # reshape and transpose, differentiated by ChainerX

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return (_space2depth.space2depth(grad_outputs[0], self.r),)


def depth2space(X, r: int) -> Variable:
    """Rearrange channel blocks into spatial blocks (the inverse of :func:`space2depth`).

    Output pixel ``(y * r + i, x * r + j)`` of channel ``k`` is input channel
    ``(i * r + j) * c + k`` at pixel ``(y, x)``, as in sub-pixel convolution.

    Args:
        X: Input variable of shape ``(n, c * r * r, h, w)`` (float).
        r: The upscaling factor, a positive int.

    Returns:
        A variable of shape ``(n, c, h * r, w * r)``.

    Example:
        >>> X = np.arange(24, dtype=np.float32).reshape(1, 4, 2, 3)
        >>> F.depth2space(X, 2).shape
        (1, 1, 4, 6)
    """
    return Depth2Space(r).apply((X,))[0]
