"""``diagonal``: the diagonal of a variable over two of its axes."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable

__all__ = ["Diagonal", "DiagonalGrad", "diagonal"]


def _diagonal_index(shape: tuple, offset: int, axis1: int, axis2: int, xp) -> tuple:
    """Index arrays of the diagonal once ``axis1`` and ``axis2`` are moved to the end."""
    rows, cols = shape[axis1], shape[axis2]
    length = max(0, min(rows - max(-offset, 0), cols - max(offset, 0)))
    steps = xp.arange(length)
    return (Ellipsis, steps + max(-offset, 0), steps + max(offset, 0))


class Diagonal(FunctionNode):
    """Take the diagonal of the ``axis1``/``axis2`` planes (the result's last axis)."""

    def __init__(self, offset: int, axis1: int, axis2: int) -> None:
        self.offset = offset
        self.axis1 = axis1
        self.axis2 = axis2

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        ndim = type_check.eval(in_types[0].ndim)
        type_check.expect(in_types[0].ndim >= 2)
        for name, axis in (("axis1", self.axis1), ("axis2", self.axis2)):
            if not -ndim <= axis < ndim:
                raise type_check.InvalidType(f"-{ndim} <= {name} < {ndim}", f"{name}={axis}")
        if self.axis1 % ndim == self.axis2 % ndim:
            raise type_check.InvalidType(
                "axis1 and axis2 are different axes", f"axis1={self.axis1}, axis2={self.axis2}"
            )

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        xp = backend.get_array_module(x)
        # NumPy's diagonal is a read-only view; outputs must be ordinary arrays.
        y = x.diagonal(offset=self.offset, axis1=self.axis1, axis2=self.axis2)
        return (xp.ascontiguousarray(y),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        # A gather from the planes of the two axes, which ChainerX differentiates.
        x = inputs[0]
        planes = chainerx.moveaxis(x, (self.axis1, self.axis2), (-2, -1))
        return (planes[_diagonal_index(x.shape, self.offset, self.axis1, self.axis2, numpy)],)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        node = self.inputs[0]
        grad = DiagonalGrad(node.shape, self.offset, self.axis1, self.axis2)
        return grad.apply(grad_outputs)


class DiagonalGrad(FunctionNode):
    """Write the input onto the diagonal of a zero array of ``shape`` (adjoint of Diagonal)."""

    def __init__(self, shape: tuple, offset: int, axis1: int, axis2: int) -> None:
        self.shape = shape
        self.offset = offset
        self.axis1 = axis1
        self.axis2 = axis2

    def forward(self, inputs: tuple) -> tuple:
        gy = inputs[0]
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self.shape, dtype=gy.dtype)
        planes = xp.moveaxis(gx, (self.axis1, self.axis2), (-2, -1))  # a writable view of gx
        index = _diagonal_index(self.shape, self.offset, self.axis1, self.axis2, xp)
        planes[index] = gy
        return (gx,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return Diagonal(self.offset, self.axis1, self.axis2).apply(grad_outputs)


def diagonal(x, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Variable:
    """Take a diagonal of a variable, as :func:`numpy.diagonal` does.

    Args:
        x: Input variable or array with at least two dimensions.
        offset: Offset of the diagonal from the main one (positive: above it).
        axis1: The first axis of the 2-D planes the diagonal is taken from.
        axis2: The second axis of those planes.

    Returns:
        A variable with ``axis1`` and ``axis2`` removed and the diagonal appended as the last
        axis.

    Example:
        >>> x = np.arange(9, dtype=np.float32).reshape(3, 3)
        >>> F.diagonal(x).array
        array([0., 4., 8.], dtype=float32)
        >>> F.diagonal(x, offset=1).array
        array([1., 5.], dtype=float32)
    """
    return Diagonal(offset, axis1, axis2).apply((x,))[0]
