"""Hyperbolic tangent."""

from __future__ import annotations

from chainer import backend
from chainer._ops._util import force_array
from chainer.function_node import FunctionNode
from chainer.functions.activation import _fast_checks
from chainer.variable import Variable

_get_array_module = backend.get_array_module


class Tanh(FunctionNode):
    """``tanh(x)``; it keeps its output, from which the derivative follows."""

    is_elementwise = True
    _check_arrays = staticmethod(_fast_checks.check_float_input)

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        self.retain_outputs((0,))
        return (force_array(_get_array_module(x).tanh(x)),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.tanh(inputs[0]),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        y = self.get_retained_outputs()[0]
        return TanhGrad().apply((y, grad_outputs[0]))


class TanhGrad(FunctionNode):
    """``gy * (1 - y ** 2)`` from the output ``y`` of tanh and its gradient ``gy``."""

    is_elementwise = True

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        y, gy = inputs
        return (force_array(gy * (1 - y * y), gy.dtype),)  # NumPy 1 promotes 0-d to float64

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        y, gy = self.get_retained_inputs()
        g = grad_outputs[0]
        y_g = y * g
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(-2 * gy * y_g)
            else:
                ret.append(g - y * y_g)
        return tuple(ret)


def tanh(x) -> Variable:
    """Element-wise hyperbolic tangent: :math:`f(x) = \\tanh(x)`.

    Args:
        x: Input variable or array of floating-point dtype, of any shape.

    Returns:
        A variable of the shape and dtype of ``x``, with values in ``(-1, 1)``.

    Example:
        >>> F.tanh(numpy.array([-1.0, 0.0, 1.0], numpy.float32)).array
        array([-0.7615942,  0.       ,  0.7615942], dtype=float32)
    """
    return Tanh().apply((x,))[0]
