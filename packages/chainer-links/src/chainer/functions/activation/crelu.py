"""Concatenated ReLU: ``concat(relu(x), relu(-x))`` along an axis."""

from __future__ import annotations

from chainer import backend
from chainer._ops.get_item import get_item
from chainer.function_node import FunctionNode
from chainer.functions.activation._scale_grad import ScaleGrad
from chainer.utils import type_check
from chainer.variable import Variable


class CReLU(FunctionNode):
    """``concat(max(x, 0), max(-x, 0))`` along ``axis``, which doubles in length.

    Args:
        axis: The axis to concatenate along.
    """

    def __init__(self, axis: int = 1) -> None:
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"axis must be an int, got {type(axis).__name__}: {axis!r}")
        self.axis = axis

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        x_type = in_types[0]
        type_check.expect(
            x_type.dtype.kind == "f",
            -x_type.ndim <= self.axis,
            self.axis < x_type.ndim,
        )

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        return (xp.concatenate((xp.maximum(x, 0), xp.maximum(-x, 0)), axis=self.axis),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.crelu(inputs[0], self.axis),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x = self.get_retained_inputs()[0].array
        gy = grad_outputs[0]
        axis = self.axis % x.ndim
        n = x.shape[axis]
        lead = (slice(None),) * axis
        gy_pos = get_item(gy, lead + (slice(0, n),))
        gy_neg = get_item(gy, lead + (slice(n, None),))
        gx = ScaleGrad(x > 0).apply((gy_pos,))[0] - ScaleGrad(x < 0).apply((gy_neg,))[0]
        return (gx,)


def crelu(x, axis: int = 1) -> Variable:
    """Concatenated Rectified Linear Unit: :math:`f(x) = (\\max(0, x), \\max(0, -x))`.

    The two halves are concatenated along ``axis``, so it doubles in length.

    Args:
        x: Input variable or array of floating-point dtype, with an axis ``axis``.
        axis: The axis along which the two halves are concatenated.

    Returns:
        A variable of ``x``'s dtype whose ``axis`` is twice as long as in ``x``.

    Example:
        >>> x = numpy.array([[-1.0, 2.0]], numpy.float32)
        >>> F.crelu(x).array
        array([[0., 2., 1., 0.]], dtype=float32)
    """
    return CReLU(axis).apply((x,))[0]
