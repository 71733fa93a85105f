"""Leaky ReLU: ``x`` for ``x >= 0``, ``slope * x`` otherwise."""

from __future__ import annotations

from chainer import backend
from chainer._ops._util import force_array
from chainer.function_node import FunctionNode
from chainer.functions.activation._scale_grad import ScaleGrad
from chainer.utils import type_check
from chainer.variable import Variable


class LeakyReLU(FunctionNode):
    """Leaky ReLU with a fixed ``slope``; it keeps its input, whose sign picks the slope."""

    is_elementwise = True

    def __init__(self, slope: float = 0.2) -> None:
        self.slope = float(slope)

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        type_check.expect(in_types[0].dtype.kind == "f")

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        self.retain_inputs((0,))
        # In x's dtype: NumPy 1 promotes a 0-d x times a Python float to float64.
        y = backend.get_array_module(x).where(x >= 0, x, x * self.slope)
        return (force_array(y, x.dtype),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.leaky_relu(inputs[0], self.slope),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x = self.get_retained_inputs()[0].array
        xp = backend.get_array_module(x)
        return ScaleGrad(xp.where(x >= 0, x.dtype.type(1), x.dtype.type(self.slope))).apply(
            grad_outputs
        )


def leaky_relu(x, slope: float = 0.2) -> Variable:
    """Leaky Rectified Linear Unit: :math:`f(x) = x` if :math:`x \\ge 0`, else
    :math:`a x`.

    Args:
        x: Input variable or array of floating-point dtype, of any shape.
        slope: The slope :math:`a` of the negative part.

    Returns:
        A variable of the shape and dtype of ``x``.

    Example:
        >>> F.leaky_relu(numpy.array([-2.0, 3.0], numpy.float32), slope=0.5).array
        array([-1.,  3.], dtype=float32)
    """
    return LeakyReLU(slope).apply((x,))[0]
