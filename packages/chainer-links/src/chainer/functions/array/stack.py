"""``stack``: join variables of one shape along a new axis."""

from __future__ import annotations

import importlib

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable

# The two modules use each other. import_module returns the module even while it is still
# loading, and even though the package binds the name 'separate' to the function.
_separate = importlib.import_module("chainer.functions.array.separate")

__all__ = ["Stack", "stack"]


class Stack(FunctionNode):
    """Stack same-shape inputs along a new ``axis``; the gradient is separated along it."""

    def __init__(self, axis: int = 0) -> None:
        self.axis = axis

    # A plain check on the arrays: stack runs in loops (RNN steps), where type_check
    # expressions would cost several times the stacking of small arrays.
    def _check_arrays(self, in_data: tuple) -> None:
        if not in_data:
            raise type_check.InvalidType("in_types.size() > 0", "0 <= 0 (no inputs)")
        first = in_data[0]
        ndim = first.ndim
        if not -ndim - 1 <= self.axis <= ndim:
            raise type_check.InvalidType(
                f"-{ndim + 1} <= axis <= {ndim} (the inputs are {ndim}-D)", f"axis={self.axis}"
            )
        for i, x in enumerate(in_data[1:], 1):
            if x.dtype != first.dtype:
                raise type_check.InvalidType(
                    f"xs[0].dtype == xs[{i}].dtype", f"{first.dtype} != {x.dtype}"
                )
            if x.shape != first.shape:
                raise type_check.InvalidType(
                    f"xs[0].shape == xs[{i}].shape", f"{first.shape} != {x.shape}"
                )

    def forward(self, inputs: tuple) -> tuple:
        xp = backend.get_array_module(*inputs)
        return (xp.stack(inputs, axis=self.axis),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.stack(inputs, self.axis),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return _separate.separate(grad_outputs[0], self.axis)


def stack(xs, axis: int = 0) -> Variable:
    """Join variables of the same shape along a new axis.

    Args:
        xs: A list or tuple of variables or arrays, all of the same shape and dtype.
        axis: Where the new axis goes in the result, in ``[-ndim - 1, ndim]`` where ``ndim`` is
            the inputs' number of dimensions.

    Returns:
        A variable with one more dimension than the inputs; its length along ``axis`` is
        ``len(xs)``.

    Example:
        >>> x1 = np.zeros((2, 3), np.float32)
        >>> x2 = np.ones((2, 3), np.float32)
        >>> F.stack([x1, x2], axis=1).shape
        (2, 2, 3)
    """
    return Stack(axis).apply(xs)[0]
