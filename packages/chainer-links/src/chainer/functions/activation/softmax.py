"""Softmax along an axis: ``exp(x) / sum(exp(x))``."""

from __future__ import annotations

from chainer import backend
from chainer._ops import array_ops
from chainer.function_node import Fallback, FunctionNode
from chainer.functions.activation import _fast_checks
from chainer.variable import Variable

_get_array_module = backend.get_array_module


class Softmax(FunctionNode):
    """Softmax along ``axis``; it keeps its output, from which the derivative follows."""

    def __init__(self, axis: int = 1) -> None:
        self.axis = axis

    def _check_arrays(self, in_data: tuple) -> None:
        _fast_checks.check_float_input(in_data)
        _fast_checks.check_axis(in_data[0].ndim, self.axis)

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        self.retain_outputs((0,))
        xp = _get_array_module(x)
        if x.size == 0:  # a max over an empty axis is undefined; there is nothing to compute
            return (xp.empty_like(x),)
        y = x - x.max(axis=self.axis, keepdims=True)
        xp.exp(y, out=y)
        y /= y.sum(axis=self.axis, keepdims=True)
        return (y,)

    def forward_chainerx(self, inputs: tuple):
        import chainerx

        x = inputs[0]
        if x.size == 0:  # ChainerX's max over an empty axis raises
            return Fallback
        return (chainerx.softmax(x, self.axis),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        y = self.get_retained_outputs()[0]
        return _SoftmaxGrad(self.axis).apply((y, grad_outputs[0]))


class _SoftmaxGrad(FunctionNode):
    """``y * (gy - sum(y * gy))`` (sum along ``axis``) from the output ``y`` of softmax."""

    def __init__(self, axis: int) -> None:
        self.axis = axis

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        y, gy = inputs
        gx = y * gy
        gx -= y * gx.sum(axis=self.axis, keepdims=True)
        return (gx,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        y, gy = self.get_retained_inputs()
        g = grad_outputs[0]
        axis = self.axis
        ret = []
        for i in indexes:
            if i == 0:
                s_gy = array_ops.sum(y * gy, axis, keepdims=True)
                s_g = array_ops.sum(y * g, axis, keepdims=True)
                ret.append(g * gy - g * s_gy - gy * s_g)
            else:  # linear in gy with a symmetric Jacobian: the same map applies to g
                ret.append(_SoftmaxGrad(axis).apply((y, g))[0])
        return tuple(ret)


def softmax(x, axis: int = 1) -> Variable:
    """Softmax: :math:`y_i = \\exp(x_i) / \\sum_j \\exp(x_j)` along ``axis``.

    Args:
        x: Input variable or array of floating-point dtype, with at least ``axis + 1`` axes.
        axis: The axis along which the outputs sum to one.

    Returns:
        A variable of the shape and dtype of ``x``.

    Example:
        >>> x = numpy.array([[0.0, 1.0, 2.0]], numpy.float32)
        >>> F.softmax(x).array
        array([[0.09003057, 0.24472846, 0.66524094]], dtype=float32)
    """
    return Softmax(axis).apply((x,))[0]
