"""``where``: choose elements from two variables by a boolean condition."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer._ops.array_ops import sum_to
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable

__all__ = ["Where", "where"]


class Where(FunctionNode):
    """``condition ? x : y`` elementwise, with broadcasting; ``condition`` is a constant."""

    def __init__(self, condition) -> None:
        if not (hasattr(condition, "shape") and hasattr(condition, "dtype")):
            raise TypeError(
                f"condition must be a boolean array or Variable, got {type(condition).__name__}"
            )
        self.condition = condition

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x", "y"))
        x_type, y_type = in_types
        condition = type_check.Variable(
            type_check.TypeInfo(self.condition.shape, self.condition.dtype), "condition"
        )
        type_check.expect(condition.dtype == numpy.bool_, x_type.dtype == y_type.dtype)
        c_shape = self.condition.shape
        x_shape = type_check.eval(x_type.shape)
        y_shape = type_check.eval(y_type.shape)
        try:
            numpy.broadcast_shapes(c_shape, x_shape, y_shape)
        except ValueError:
            raise type_check.InvalidType(
                "condition, x and y have broadcastable shapes",
                f"condition.shape={c_shape}, x.shape={x_shape}, y.shape={y_shape}",
            ) from None

    def forward(self, inputs: tuple) -> tuple:
        x, y = inputs
        xp = backend.get_array_module(x, y)
        return (xp.where(self.condition, x, y),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        x, y = inputs
        condition = chainerx.asarray(self.condition, device=x.device)
        return (chainerx.where(condition, x, y),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        gy = grad_outputs[0]
        xp = backend.get_array_module(gy)
        zero = xp.zeros((), dtype=gy.dtype)
        ret = []
        for i in indexes:
            pair = (gy, zero) if i == 0 else (zero, gy)
            g = Where(self.condition).apply(pair)[0]
            shape = self.inputs[i].shape
            ret.append(g if g.shape == shape else sum_to(g, shape))
        return tuple(ret)


def where(condition, x, y) -> Variable:
    """Choose elements from ``x`` where ``condition`` holds and from ``y`` elsewhere.

    Args:
        condition: Boolean array (or variable, taken as a constant).
        x: Variable or array chosen where ``condition`` is true.
        y: Variable or array chosen elsewhere; same dtype as ``x``.

    The shapes of the three are broadcast together (NumPy rules).

    Returns:
        A variable of the broadcast shape.

    Example:
        >>> cond = np.array([[True, False], [False, True]])
        >>> x = np.zeros((2, 2), np.float32)
        >>> y = np.ones((2, 2), np.float32)
        >>> F.where(cond, x, y).array
        array([[0., 1.],
               [1., 0.]], dtype=float32)
    """
    if isinstance(condition, Variable):
        condition = condition.array
    return Where(condition).apply((x, y))[0]
