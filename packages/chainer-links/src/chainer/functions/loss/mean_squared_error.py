"""Mean squared error between two arrays of the same shape."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.loss import _checks
from chainer.functions.loss._chainerx_mean import mean_of_difference
from chainer.variable import Variable

_float16 = numpy.dtype(numpy.float16)


class MeanSquaredError(FunctionNode):
    """``mean((x0 - x1) ** 2)`` over every element."""

    def check_type_forward(self, in_types) -> None:
        _checks.expect_matching_floats(in_types, ("x0", "x1"))

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        diff = (x0 - x1).ravel()
        if diff.dtype == _float16:  # a float16 sum of squares overflows past 65504
            diff = diff.astype(numpy.float32)
        xp = backend.get_array_module(diff)
        value = diff.dot(diff) / diff.size if diff.size else xp.nan
        return (xp.asarray(value, dtype=x0.dtype),)

    def forward_chainerx(self, inputs: tuple):
        import chainerx

        return mean_of_difference(chainerx.square, inputs)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x0, x1 = self.get_retained_inputs()
        diff = x0 - x1
        gx0 = diff * (grad_outputs[0] * (2.0 / max(diff.size, 1)))
        return tuple([gx0 if i == 0 else -gx0 for i in indexes])


def mean_squared_error(x0, x1) -> Variable:
    """Mean of the squared differences of all elements: :math:`\\frac{1}{N}\\sum (x_0 - x_1)^2`.

    Args:
        x0: Float variable or array.
        x1: Variable or array of the shape and dtype of ``x0``.

    Returns:
        A scalar variable of the dtype of ``x0`` (nan for empty inputs).

    Example:
        >>> x0 = numpy.array([1.0, 2.0, 3.0], numpy.float32)
        >>> x1 = numpy.array([1.0, 0.0, 4.0], numpy.float32)
        >>> F.mean_squared_error(x0, x1).array
        array(1.6666666, dtype=float32)
    """
    return MeanSquaredError().apply((x0, x1))[0]
