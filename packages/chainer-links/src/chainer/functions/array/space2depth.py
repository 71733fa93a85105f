"""``space2depth``: move spatial blocks into channel blocks (the inverse of ``depth2space``)."""

from __future__ import annotations

import importlib

from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable

# The two modules use each other. import_module returns the module even while it is still
# loading, and even though the package binds the name 'depth2space' to the function.
_depth2space = importlib.import_module("chainer.functions.array.depth2space")

__all__ = ["Space2Depth", "space2depth"]


class Space2Depth(FunctionNode):
    """``(n, c, h * r, w * r) -> (n, c * r * r, h, w)``; the inverse is :class:`Depth2Space`."""

    def __init__(self, r: int) -> None:
        self.r = _depth2space.check_ratio(r)

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("X",))
        x_type = in_types[0]
        type_check.expect(x_type.dtype.kind == "f", x_type.ndim == 4)
        type_check.expect(x_type.shape[2] % self.r == 0, x_type.shape[3] % self.r == 0)

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        r = self.r
        n, c, h, w = x.shape
        h //= r
        w //= r
        # Pixel (y * r + i, x * r + j) of channel k goes to channel (i * r + j) * c + k.
        y = x.reshape(n, c, h, r, w, r).transpose(0, 3, 5, 1, 2, 4).reshape(n, r * r * c, h, w)
        return (y,)

    forward_chainerx = forward  # reshape and transpose, differentiated by ChainerX

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return (_depth2space.depth2space(grad_outputs[0], self.r),)


def space2depth(X, r: int) -> Variable:
    """Rearrange spatial blocks into channel blocks (the inverse of :func:`depth2space`).

    Input pixel ``(y * r + i, x * r + j)`` of channel ``k`` becomes output channel
    ``(i * r + j) * c + k`` at pixel ``(y, x)``.

    Args:
        X: Input variable of shape ``(n, c, h * r, w * r)`` (float).
        r: The downscaling factor, a positive int; it must divide the height and the width.

    Returns:
        A variable of shape ``(n, c * r * r, h, w)``.

    Example:
        >>> X = np.arange(24, dtype=np.float32).reshape(1, 1, 4, 6)
        >>> F.space2depth(X, 2).shape
        (1, 4, 2, 3)
    """
    return Space2Depth(r).apply((X,))[0]
