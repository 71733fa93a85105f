"""``flip``: reverse the order of elements along an axis."""

from __future__ import annotations

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable

__all__ = ["Flip", "flip"]


def _flip(array, axis: int):
    """``array`` reversed along ``axis`` by its array module (Chainer v7's name for it)."""
    return backend.get_array_module(array).flip(array, axis)


class Flip(FunctionNode):
    """Reverse the input along ``axis``; the gradient is reversed back."""

    def __init__(self, axis: int) -> None:
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError(f"axis must be an int, got {type(axis).__name__}: {axis!r}")
        self.axis = axis

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        x_type = in_types[0]
        type_check.expect(x_type.ndim > 0)
        if self.axis < 0:
            type_check.expect(x_type.ndim >= -self.axis)
        else:
            type_check.expect(x_type.ndim > self.axis)

    def forward(self, inputs: tuple) -> tuple:
        return (_flip(inputs[0], self.axis),)

    forward_chainerx = forward  # chainerx.flip

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return (flip(grad_outputs[0], self.axis),)


def flip(x, axis: int) -> Variable:
    """Reverse the order of the elements of a variable along an axis.

    Args:
        x: Input variable or array with at least one dimension.
        axis: The axis to reverse (negative values count from the end).

    Returns:
        The flipped variable.

    Example:
        >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> F.flip(x, 1).array
        array([[2., 1., 0.],
               [5., 4., 3.]], dtype=float32)
    """
    return Flip(axis).apply((x,))[0]
