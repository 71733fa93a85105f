"""Clipped rectifier: ``min(max(x, 0), z)``, and ReLU6 (``z = 6``)."""

from __future__ import annotations

import numbers

from chainer import backend
from chainer._ops._util import force_array
from chainer.function_node import FunctionNode
from chainer.functions.activation._scale_grad import ScaleGrad
from chainer.utils import type_check
from chainer.variable import Variable


class ClippedReLU(FunctionNode):
    """``min(max(x, 0), z)``; it keeps its input, which locates the two kinks.

    Args:
        z: The positive upper bound.
    """

    is_elementwise = True

    def __init__(self, z: float) -> None:
        if isinstance(z, bool) or not isinstance(z, numbers.Real):
            raise TypeError(f"z must be a real number, got {type(z).__name__}: {z!r}")
        if not z > 0:
            raise ValueError(f"z must be positive, got {z!r}")
        self.cap = float(z)

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        type_check.expect(in_types[0].dtype.kind == "f")

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        self.retain_inputs((0,))
        # Bounds in x's dtype: NumPy 1 would promote a 0-d float16 x to float64.
        low, high = x.dtype.type(0), x.dtype.type(self.cap)
        return (force_array(backend.get_array_module(x).clip(x, low, high)),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.clipped_relu(inputs[0], self.cap),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x = self.get_retained_inputs()[0].array
        return ScaleGrad((x > 0) & (x < self.cap)).apply(grad_outputs)


def clipped_relu(x, z: float = 20.0) -> Variable:
    """Clipped Rectifier Unit: :math:`f(x) = \\min(\\max(0, x), z)`.

    Args:
        x: Input variable or array of floating-point dtype, of any shape.
        z: The clipping value, a positive number.

    Returns:
        A variable of the shape and dtype of ``x``.

    Raises:
        TypeError: ``z`` is not a real number.
        ValueError: ``z`` is not positive.

    Example:
        >>> x = numpy.array([-1.0, 0.5, 30.0], numpy.float32)
        >>> F.clipped_relu(x, z=10.0).array
        array([ 0. ,  0.5, 10. ], dtype=float32)
    """
    return ClippedReLU(z).apply((x,))[0]


def relu6(x) -> Variable:
    """Rectifier Unit clipped at 6: :math:`f(x) = \\min(\\max(0, x), 6)`.

    Args:
        x: Input variable or array of floating-point dtype, of any shape.

    Returns:
        A variable of the shape and dtype of ``x``.

    Example:
        >>> F.relu6(numpy.array([-1.0, 3.0, 8.0], numpy.float32)).array
        array([0., 3., 6.], dtype=float32)
    """
    return ClippedReLU(6.0).apply((x,))[0]
