"""Softplus: the smooth ReLU ``log(1 + exp(beta * x)) / beta``."""

from __future__ import annotations

from chainer import backend
from chainer._ops._util import force_array
from chainer.function_node import FunctionNode
from chainer.functions.activation.sigmoid import sigmoid
from chainer.utils import type_check
from chainer.variable import Variable


class Softplus(FunctionNode):
    """Softplus with sharpness ``beta``; it keeps its input for the derivative."""

    is_elementwise = True

    def __init__(self, beta: float = 1.0) -> None:
        if not beta:
            raise ValueError(f"beta must be nonzero (the output is divided by it), got {beta!r}")
        self.beta = float(beta)

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        type_check.expect(in_types[0].dtype.kind == "f")

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        # logaddexp(0, t) = log(1 + exp(t)) without overflow for large t.
        y = xp.logaddexp(0, x * self.beta) * (1 / self.beta)
        return (force_array(y, x.dtype),)  # NumPy 1 promotes a 0-d x to float64 here

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.softplus(inputs[0], self.beta),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x = self.get_retained_inputs()[0]
        return (grad_outputs[0] * sigmoid(x * self.beta),)


def softplus(x, beta: float = 1.0) -> Variable:
    """Element-wise softplus: :math:`f(x) = \\frac{1}{\\beta} \\log(1 + \\exp(\\beta x))`.

    A smooth approximation of ReLU that approaches it as ``beta`` grows.

    Args:
        x: Input variable or array of floating-point dtype, of any shape.
        beta: The sharpness :math:`\\beta`, nonzero.

    Returns:
        A variable of the shape and dtype of ``x``.

    Raises:
        ValueError: ``beta`` is zero.

    Example:
        >>> F.softplus(numpy.array([-1.0, 0.0, 1.0], numpy.float32)).array
        array([0.3132617, 0.6931472, 1.3132617], dtype=float32)
    """
    return Softplus(beta).apply((x,))[0]
