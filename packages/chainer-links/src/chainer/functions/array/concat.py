"""``concat``: join variables along an existing axis."""

from __future__ import annotations

import importlib

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable

# The two modules use each other. import_module returns the module even while it is still
# loading, and even though the package binds the name 'split_axis' to the function.
_split_axis = importlib.import_module("chainer.functions.array.split_axis")

__all__ = ["Concat", "concat"]

_ndarray = numpy.ndarray


class Concat(FunctionNode):
    """Concatenate the inputs along ``axis``; the gradient is split back into pieces."""

    def __init__(self, axis: int = 1) -> None:
        if not isinstance(axis, (int, numpy.integer)) or isinstance(axis, bool):
            raise TypeError(f"axis must be an int, got {type(axis).__name__}: {axis!r}")
        self.axis = int(axis)

    # A plain check on the arrays: concat is on hot paths, and type_check expressions cost more
    # than the concatenation of small arrays.
    def _check_arrays(self, in_data: tuple) -> None:
        if not in_data:
            raise type_check.InvalidType("in_types.size() > 0", "0 <= 0 (no inputs)")
        first = in_data[0]
        ndim = first.ndim
        axis = self.axis
        if not -ndim <= axis < ndim:
            raise type_check.InvalidType(
                f"-{ndim} <= axis < {ndim} (xs[0].ndim == {ndim})", f"axis={axis}"
            )
        axis %= ndim
        for i, x in enumerate(in_data[1:], 1):
            if x.dtype != first.dtype:
                raise type_check.InvalidType(
                    f"xs[0].dtype == xs[{i}].dtype", f"{first.dtype} != {x.dtype}"
                )
            shape = x.shape
            if (
                len(shape) != ndim
                or shape[:axis] != first.shape[:axis]
                or shape[axis + 1 :] != first.shape[axis + 1 :]
            ):
                raise type_check.InvalidType(
                    f"xs[{i}].shape equals xs[0].shape except on axis {axis}",
                    f"xs[0].shape={first.shape}, xs[{i}].shape={shape}",
                )

    def forward(self, inputs: tuple) -> tuple:
        xp = numpy if type(inputs[0]) is _ndarray else backend.get_array_module(*inputs)
        axis = self.axis % inputs[0].ndim
        bounds = []
        end = 0
        for x in inputs[:-1]:
            end += x.shape[axis]
            bounds.append(end)
        self._bounds = bounds
        return (xp.concatenate(inputs, axis=axis),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.concatenate(inputs, self.axis),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return _split_axis.split_axis(grad_outputs[0], self._bounds, self.axis)


def concat(xs, axis: int = 1) -> Variable:
    """Concatenate variables along an axis.

    Args:
        xs: A list or tuple of variables or arrays. They must have the same dtype and the same
            shape except along ``axis``.
        axis: The axis to join along (negative values count from the end).

    Returns:
        The concatenated variable.

    Example:
        >>> x = np.arange(0, 12).reshape(3, 4)
        >>> y = np.arange(20, 26).reshape(3, 2)
        >>> F.concat((x, y), axis=1).shape
        (3, 6)
    """
    return Concat(axis).apply(xs)[0]
