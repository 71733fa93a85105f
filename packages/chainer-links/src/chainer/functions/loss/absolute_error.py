"""Elementwise absolute error ``|x0 - x1|``."""

from __future__ import annotations

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.loss import _checks
from chainer.utils import force_array
from chainer.variable import Variable


class AbsoluteError(FunctionNode):
    """``|x0 - x1|`` elementwise; the slope is the (constant) sign of the difference."""

    is_elementwise = True

    def check_type_forward(self, in_types) -> None:
        _checks.expect_matching_floats(in_types, ("x0", "x1"))

    def forward(self, inputs: tuple) -> tuple:
        diff = inputs[0] - inputs[1]
        self._sign = force_array(backend.get_array_module(diff).sign(diff))
        return (force_array(abs(diff)),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.absolute_error(*inputs),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        gx0 = Variable(self._sign, requires_grad=False) * grad_outputs[0]
        return tuple([gx0 if i == 0 else -gx0 for i in indexes])


def absolute_error(x0, x1) -> Variable:
    """Elementwise absolute error :math:`|x_0 - x_1|`.

    Args:
        x0: Float variable or array.
        x1: Variable or array of the shape and dtype of ``x0``.

    Returns:
        A variable of the shape and dtype of ``x0``.

    Example:
        >>> x0 = numpy.array([1.0, 2.0], numpy.float32)
        >>> F.absolute_error(x0, numpy.array([0.0, 4.0], numpy.float32)).array
        array([1., 2.], dtype=float32)
    """
    return AbsoluteError().apply((x0, x1))[0]
