"""Mean absolute error between two arrays of the same shape."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.loss import _checks
from chainer.functions.loss._chainerx_mean import mean_of_difference
from chainer.utils import force_array
from chainer.variable import Variable

_float16 = numpy.dtype(numpy.float16)


class MeanAbsoluteError(FunctionNode):
    """``mean(|x0 - x1|)`` over every element."""

    def check_type_forward(self, in_types) -> None:
        _checks.expect_matching_floats(in_types, ("x0", "x1"))

    def forward(self, inputs: tuple) -> tuple:
        x0, x1 = inputs
        xp = backend.get_array_module(x0)
        diff = x0 - x1
        # The slope is the sign of the difference: a constant, so nothing else is kept.
        self._sign = force_array(xp.sign(diff))
        magnitude = abs(diff)
        if magnitude.dtype == _float16:  # a float16 sum stops growing past 2048 ones
            magnitude = magnitude.astype(numpy.float32)
        value = magnitude.sum() / diff.size if diff.size else xp.nan
        return (xp.asarray(value, dtype=x0.dtype),)

    def forward_chainerx(self, inputs: tuple):
        import chainerx

        return mean_of_difference(chainerx.absolute, inputs)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        sign = Variable(self._sign, requires_grad=False)
        gx0 = sign * (grad_outputs[0] * (1.0 / max(sign.size, 1)))
        return tuple([gx0 if i == 0 else -gx0 for i in indexes])


def mean_absolute_error(x0, x1) -> Variable:
    """Mean of the absolute differences of all elements: :math:`\\frac{1}{N}\\sum |x_0 - x_1|`.

    Args:
        x0: Float variable or array.
        x1: Variable or array of the shape and dtype of ``x0``.

    Returns:
        A scalar variable of the dtype of ``x0`` (nan for empty inputs).

    Example:
        >>> x0 = numpy.array([1.0, 2.0, 3.0], numpy.float32)
        >>> x1 = numpy.array([1.0, 0.0, 4.0], numpy.float32)
        >>> F.mean_absolute_error(x0, x1).array
        array(1., dtype=float32)
    """
    return MeanAbsoluteError().apply((x0, x1))[0]
