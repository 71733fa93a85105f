"""``separate``: split a variable into the slices along one axis (the inverse of ``stack``)."""

from __future__ import annotations

import importlib

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.utils import type_check

# The two modules use each other. import_module returns the module even while it is still
# loading, and even though the package binds the name 'stack' to the function.
_stack = importlib.import_module("chainer.functions.array.stack")

__all__ = ["Separate", "separate"]


class Separate(FunctionNode):
    """Return the slices ``x[..., i, ...]`` along ``axis``; the gradient stacks them back."""

    def __init__(self, axis: int = 0) -> None:
        self.axis = axis

    # A plain check on the array (separate runs in loops; see Stack).
    def _check_arrays(self, in_data: tuple) -> None:
        ndim = in_data[0].ndim
        if not -ndim <= self.axis < ndim:
            raise type_check.InvalidType(
                f"-{ndim} <= axis < {ndim} (x is {ndim}-D)", f"axis={self.axis}"
            )

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        axis = self.axis % x.ndim
        lead = (slice(None),) * axis
        self._shape = x.shape[:axis] + x.shape[axis + 1 :]
        # The trailing Ellipsis keeps 0-d slices arrays (a bare integer index gives a scalar).
        return tuple(x[(*lead, i, Ellipsis)] for i in range(x.shape[axis]))

    forward_chainerx = forward  # basic indexing, differentiated by ChainerX

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        if any(g is None for g in grad_outputs):
            xp = backend.get_array_module(*[g for g in grad_outputs if g is not None])
            zeros = xp.zeros(self._shape, dtype=self.inputs[0].dtype)
            grad_outputs = tuple(zeros if g is None else g for g in grad_outputs)
        return (_stack.stack(grad_outputs, self.axis),)


def separate(x, axis: int = 0) -> tuple:
    """Separate a variable into its slices along an axis.

    Args:
        x: Input variable or array.
        axis: The axis to separate along.

    Returns:
        A tuple of ``x.shape[axis]`` variables of shape ``x.shape`` without ``axis``.

    Example:
        >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> a, b, c = F.separate(x, axis=1)
        >>> a.array
        array([0., 3.], dtype=float32)
    """
    return Separate(axis).apply((x,))
