"""Exponential linear unit: ``x`` for ``x > 0``, ``alpha * (exp(x) - 1)`` otherwise."""

from __future__ import annotations

from chainer import backend
from chainer._ops._util import force_array
from chainer._ops.exponential import exp
from chainer.function_node import FunctionNode
from chainer.functions.activation._scale_grad import ScaleGrad
from chainer.utils import type_check
from chainer.variable import Variable


def _negative_part(xp, x):
    # exp is evaluated only where it is used, so large positive inputs cannot overflow.
    return xp.minimum(x, 0)


class ELU(FunctionNode):
    """ELU with slope parameter ``alpha``; it keeps its input for the derivative."""

    is_elementwise = True

    def __init__(self, alpha: float = 1.0) -> None:
        self.alpha = float(alpha)

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        type_check.expect(in_types[0].dtype.kind == "f")

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        y = xp.where(x > 0, x, self.alpha * xp.expm1(_negative_part(xp, x)))
        return (force_array(y, x.dtype),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.elu(inputs[0], self.alpha),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x = self.get_retained_inputs()[0]
        return ELUGrad(self.alpha).apply((x, grad_outputs[0]))


class ELUGrad(FunctionNode):
    """``gy`` where ``x > 0``, ``gy * alpha * exp(x)`` elsewhere."""

    is_elementwise = True

    def __init__(self, alpha: float) -> None:
        self.alpha = alpha

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        x, gy = inputs
        xp = backend.get_array_module(x)
        slope = xp.where(x > 0, 1, self.alpha * xp.exp(_negative_part(xp, x)))
        return (force_array(gy * slope, gy.dtype),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x, gy = self.get_retained_inputs()
        g = grad_outputs[0]
        ret = []
        for i in indexes:
            if i == 0:
                # d(slope)/dx is alpha * exp(x) on the negative side and zero elsewhere.
                negative = x.array <= 0
                x_neg = ScaleGrad(negative).apply((x,))[0]
                ret.append(ScaleGrad(negative).apply((g * gy * exp(x_neg),))[0] * self.alpha)
            else:
                ret.append(ELUGrad(self.alpha).apply((x, g))[0])
        return tuple(ret)


def elu(x, alpha: float = 1.0) -> Variable:
    """Exponential Linear Unit: :math:`f(x) = x` if :math:`x > 0`, else
    :math:`\\alpha (\\exp(x) - 1)`.

    Args:
        x: Input variable or array of floating-point dtype, of any shape.
        alpha: The saturation scale of the negative part.

    Returns:
        A variable of the shape and dtype of ``x``.

    Example:
        >>> x = numpy.array([-1.0, 0.0, 2.0], numpy.float32)
        >>> F.elu(x).array
        array([-0.63212055,  0.        ,  2.        ], dtype=float32)
    """
    return ELU(alpha).apply((x,))[0]
