"""The gradient of a piecewise-linear function: the incoming gradient times a fixed array."""

from __future__ import annotations

from chainer._ops._util import force_array
from chainer.function_node import FunctionNode


class ScaleGrad(FunctionNode):
    """``gy * factor`` for a fixed ``factor`` (a boolean mask or an array of ``gy``'s dtype).

    ReLU-like functions, dropout and zoneout all backpropagate this way. The map is linear in
    ``gy``, so its gradient is the same map: double backprop needs nothing else.

    Args:
        factor: Array broadcastable to the gradient; booleans act as a 0/1 mask.
    """

    is_elementwise = True

    def __init__(self, factor) -> None:
        self.factor = factor

    def forward(self, inputs: tuple) -> tuple:
        return (force_array(inputs[0] * self.factor),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return ScaleGrad(self.factor).apply(grad_outputs)
