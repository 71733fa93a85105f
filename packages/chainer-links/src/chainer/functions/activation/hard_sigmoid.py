"""Hard sigmoid: the piecewise-linear ``clip(0.2 * x + 0.5, 0, 1)``."""

from __future__ import annotations

from chainer import backend
from chainer._ops._util import force_array
from chainer.function_node import FunctionNode
from chainer.functions.activation._scale_grad import ScaleGrad
from chainer.utils import type_check
from chainer.variable import Variable


class HardSigmoid(FunctionNode):
    """``clip(0.2 * x + 0.5, 0, 1)``; it keeps its input, which locates the kinks."""

    is_elementwise = True

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        type_check.expect(in_types[0].dtype.kind == "f")

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        self.retain_inputs((0,))
        y = backend.get_array_module(x).clip(x * 0.2 + 0.5, 0, 1)
        return (force_array(y, x.dtype),)  # NumPy 1 promotes a 0-d x to float64 here

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.clip(inputs[0] * 0.2 + 0.5, 0, 1),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x = self.get_retained_inputs()[0].array
        slope = ((x > -2.5) & (x < 2.5)) * x.dtype.type(0.2)
        return ScaleGrad(slope).apply(grad_outputs)


def hard_sigmoid(x) -> Variable:
    """Element-wise hard sigmoid: :math:`f(x) = \\min(\\max(0.2 x + 0.5, 0), 1)`.

    Args:
        x: Input variable or array of floating-point dtype, of any shape.

    Returns:
        A variable of the shape and dtype of ``x``, with values in ``[0, 1]``.

    Example:
        >>> F.hard_sigmoid(numpy.array([-3.0, 0.0, 1.0], numpy.float32)).array
        array([0. , 0.5, 0.7], dtype=float32)
    """
    return HardSigmoid().apply((x,))[0]
