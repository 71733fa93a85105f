"""Logistic sigmoid: ``1 / (1 + exp(-x))``."""

from __future__ import annotations

from chainer import backend
from chainer._ops._util import force_array
from chainer.function_node import FunctionNode
from chainer.functions.activation import _fast_checks
from chainer.variable import Variable

_get_array_module = backend.get_array_module


def sigmoid_array(xp, x):
    """The sigmoid of an array, through tanh (no overflow at large ``|x|``), in one new array."""
    y = xp.empty_like(x)
    xp.multiply(x, 0.5, out=y)
    xp.tanh(y, out=y)
    y *= 0.5
    y += 0.5
    return y


class Sigmoid(FunctionNode):
    """Logistic sigmoid; it keeps its output, from which the derivative follows."""

    is_elementwise = True
    _check_arrays = staticmethod(_fast_checks.check_float_input)

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        self.retain_outputs((0,))
        return (sigmoid_array(_get_array_module(x), x),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.sigmoid(inputs[0]),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        y = self.get_retained_outputs()[0]
        return SigmoidGrad().apply((y, grad_outputs[0]))


class SigmoidGrad(FunctionNode):
    """``gy * y * (1 - y)`` from the output ``y`` of sigmoid and its gradient ``gy``."""

    is_elementwise = True

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        y, gy = inputs
        # The dtype is restated: NumPy 1 computes ``1 - y`` of a 0-d y in float64.
        return (force_array(gy * y * (1 - y), y.dtype),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        y, gy = self.get_retained_inputs()
        g = grad_outputs[0]
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(g * gy * (1 - 2 * y))
            else:
                ret.append(g * y * (1 - y))
        return tuple(ret)


def sigmoid(x) -> Variable:
    """Element-wise logistic sigmoid: :math:`f(x) = (1 + \\exp(-x))^{-1}`.

    Args:
        x: Input variable or array of floating-point dtype, of any shape.

    Returns:
        A variable of the shape and dtype of ``x``, with values in ``(0, 1)``.

    Example:
        >>> F.sigmoid(numpy.array([-1.0, 0.0, 1.0], numpy.float32)).array
        array([0.2689414, 0.5      , 0.7310586], dtype=float32)
    """
    return Sigmoid().apply((x,))[0]
