"""Log-softmax along an axis: ``x - log(sum(exp(x)))``, computed stably."""

from __future__ import annotations

from chainer import backend
from chainer._ops import array_ops
from chainer._ops.exponential import exp
from chainer.function_node import Fallback, FunctionNode
from chainer.functions.activation import _fast_checks
from chainer.variable import Variable

_get_array_module = backend.get_array_module


def logsumexp(xp, x, axis: int):
    """``log(sum(exp(x), axis, keepdims=True))`` of an array, shifted by the max to stay finite."""
    m = x.max(axis=axis, keepdims=True)
    y = x - m
    xp.exp(y, out=y)
    s = y.sum(axis=axis, keepdims=True)
    xp.log(s, out=s)
    s += m
    return s


def _log_softmax(x, axis: int = 1):
    """Log-softmax of an array (for functions such as softmax_cross_entropy that need it)."""
    xp = _get_array_module(x)
    if x.size == 0:  # a max over an empty axis is undefined; there is nothing to compute
        return xp.empty_like(x)
    return x - logsumexp(xp, x, axis)


class LogSoftmax(FunctionNode):
    """Log-softmax along ``axis``; it keeps its output, from which the derivative follows."""

    def __init__(self, axis: int = 1) -> None:
        self.axis = axis

    def _check_arrays(self, in_data: tuple) -> None:
        _fast_checks.check_float_input(in_data)
        _fast_checks.check_axis(in_data[0].ndim, self.axis)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_outputs((0,))
        return (_log_softmax(inputs[0], self.axis),)

    def forward_chainerx(self, inputs: tuple):
        import chainerx

        x = inputs[0]
        if x.size == 0:  # ChainerX's max over an empty axis raises
            return Fallback
        return (chainerx.log_softmax(x, self.axis),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        y = self.get_retained_outputs()[0]
        return _LogSoftmaxGrad(self.axis).apply((y, grad_outputs[0]))


class _LogSoftmaxGrad(FunctionNode):
    """``gy - exp(y) * sum(gy)`` (sum along ``axis``) from the output ``y`` of log-softmax."""

    def __init__(self, axis: int) -> None:
        self.axis = axis

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        y, gy = inputs
        gx = _get_array_module(y).exp(y)
        gx *= gy.sum(axis=self.axis, keepdims=True)
        return (gy - gx,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        y, gy = self.get_retained_inputs()
        g = grad_outputs[0]
        axis = self.axis
        exp_y = exp(y)
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(-g * exp_y * array_ops.sum(gy, axis, keepdims=True))
            else:
                ret.append(g - array_ops.sum(g * exp_y, axis, keepdims=True))
        return tuple(ret)


def log_softmax(x, axis: int = 1) -> Variable:
    """Log-softmax: :math:`y_i = x_i - \\log \\sum_j \\exp(x_j)` along ``axis``.

    It is more accurate than ``log(softmax(x))`` where the softmax underflows.

    Args:
        x: Input variable or array of floating-point dtype, with at least ``axis + 1`` axes.
        axis: The axis along which the softmax is normalized.

    Returns:
        A variable of the shape and dtype of ``x``.

    Example:
        >>> x = numpy.array([[0.0, 1.0, 2.0]], numpy.float32)
        >>> F.log_softmax(x).array
        array([[-2.4076061 , -1.4076061 , -0.40760612]], dtype=float32)
    """
    return LogSoftmax(axis).apply((x,))[0]
