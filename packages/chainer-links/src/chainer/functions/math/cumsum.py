"""Cumulative sum along an axis."""

from __future__ import annotations

from chainer import backend, utils
from chainer._ops.array_ops import reshape
from chainer._ops.get_item import get_item
from chainer.function_node import FunctionNode
from chainer.functions.math._axis import check_single_axis, expect_axes
from chainer.utils import type_check
from chainer.variable import Variable


def flip(x: Variable, axis: int) -> Variable:
    """Reverse ``x`` along ``axis`` (differentiable)."""
    index = [slice(None)] * x.ndim
    index[axis] = slice(None, None, -1)
    return get_item(x, tuple(index))


def reverse_cumsum(x: Variable, axis: int) -> Variable:
    """``y[i] = sum(x[i:])`` along ``axis``: the adjoint of the cumulative sum."""
    return flip(cumsum(flip(x, axis), axis), axis)


class Cumsum(FunctionNode):
    """Cumulative sum along ``axis`` (over the flattened input when ``axis`` is None)."""

    def __init__(self, axis=None) -> None:
        check_single_axis(axis)
        self.axis = axis

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        type_check.expect(in_types[0].dtype.kind == "f")
        expect_axes(in_types[0], None if self.axis is None else (self.axis,))

    def forward(self, inputs: tuple) -> tuple:
        (x,) = inputs
        xp = backend.get_array_module(x)
        return (utils.force_array(xp.cumsum(x, axis=self.axis), x.dtype),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        gy = grad_outputs[0]
        shape = self.inputs[0].shape
        if self.axis is None:
            return (reshape(reverse_cumsum(gy, 0), shape),)
        return (reverse_cumsum(gy, self.axis % len(shape)),)


def cumsum(x, axis=None) -> Variable:
    """Cumulative sum of the elements of ``x`` along ``axis``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.
        axis (None or int): The axis to accumulate along; ``None`` accumulates over the
            flattened input and returns a 1-D result.

    Returns:
        ~chainer.Variable: The running sums, of the shape of ``x`` (1-D for ``axis=None``).

    Example:
        >>> F.cumsum(np.array([[1.0, 2.0], [3.0, 4.0]]), axis=1).array
        array([[1., 3.],
               [3., 7.]])
    """
    return Cumsum(axis).apply((x,))[0]
