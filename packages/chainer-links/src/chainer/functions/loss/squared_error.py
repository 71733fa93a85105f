"""Elementwise squared error ``(x0 - x1) ** 2`` (also known as ``squared_difference``)."""

from __future__ import annotations

from chainer.function_node import FunctionNode
from chainer.functions.loss import _checks
from chainer.utils import force_array
from chainer.variable import Variable


class SquaredError(FunctionNode):
    """``(x0 - x1) ** 2`` elementwise."""

    is_elementwise = True

    def check_type_forward(self, in_types) -> None:
        _checks.expect_matching_floats(in_types, ("x0", "x1"))

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        diff = inputs[0] - inputs[1]
        return (force_array(diff * diff),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.squared_error(*inputs),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x0, x1 = self.get_retained_inputs()
        gx0 = 2.0 * (x0 - x1) * grad_outputs[0]
        return tuple([gx0 if i == 0 else -gx0 for i in indexes])


def squared_error(x0, x1) -> Variable:
    """Elementwise squared error :math:`(x_0 - x_1)^2`.

    Args:
        x0: Float variable or array.
        x1: Variable or array of the shape and dtype of ``x0``.

    Returns:
        A variable of the shape and dtype of ``x0``.

    Example:
        >>> x0 = numpy.array([1.0, 2.0], numpy.float32)
        >>> F.squared_error(x0, numpy.array([0.0, 4.0], numpy.float32)).array
        array([1., 4.], dtype=float32)
    """
    return SquaredError().apply((x0, x1))[0]


def squared_difference(x1, x2) -> Variable:
    """Elementwise squared difference :math:`(x_1 - x_2)^2`; the same as :func:`squared_error`.

    Args:
        x1: Float variable or array.
        x2: Variable or array of the shape and dtype of ``x1``.

    Returns:
        A variable of the shape and dtype of ``x1``.
    """
    return SquaredError().apply((x1, x2))[0]
