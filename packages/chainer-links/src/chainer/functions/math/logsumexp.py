"""``log(sum(exp(x)))`` over axes, computed without overflow."""

from __future__ import annotations

from chainer import backend, utils
from chainer._ops.array_ops import broadcast_to, reshape
from chainer._ops.exponential import exp
from chainer.function_node import FunctionNode
from chainer.functions.math._axis import expect_axes, kept_shape, normalize_axes
from chainer.utils import type_check
from chainer.variable import Variable


class LogSumExp(FunctionNode):
    """``log(sum(exp(x), axis))``; the gradient is the softmax of ``x`` over ``axis``."""

    def __init__(self, axis=None) -> None:
        self.axis = normalize_axes(axis)

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        type_check.expect(in_types[0].dtype.kind == "f")
        expect_axes(in_types[0], self.axis)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        (x,) = inputs
        xp = backend.get_array_module(x)
        # Shifting by the maximum keeps exp from overflowing.
        m = x.max(axis=self.axis, keepdims=True)
        y = xp.log(xp.exp(x - m).sum(axis=self.axis, keepdims=True)) + m
        return (utils.force_array(y.reshape(_reduced_shape(x.shape, self.axis)), x.dtype),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.logsumexp(inputs[0], axis=self.axis),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        (y,) = self.get_retained_outputs()
        kept = kept_shape(x.shape, self.axis)
        y = broadcast_to(reshape(y, kept), x.shape)
        gy = broadcast_to(reshape(grad_outputs[0], kept), x.shape)
        return (gy * exp(x - y),)


def _reduced_shape(shape: tuple, axes) -> tuple:
    ndim = len(shape)
    reduced = set(range(ndim)) if axes is None else {a % ndim for a in axes}
    return tuple(n for i, n in enumerate(shape) if i not in reduced)


def logsumexp(x, axis=None) -> Variable:
    """Log of the sum of the exponentials of the elements of ``x`` over ``axis``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.
        axis (None, int or tuple of int): The axes to reduce; ``None`` reduces all of them.

    Returns:
        ~chainer.Variable: ``log(sum(exp(x), axis))``, without overflow for large ``x``.

    Example:
        >>> F.logsumexp(np.array([[0.0, 0.0], [1000.0, 1000.0]]), axis=1).array - [0, 1000]
        array([0.69314718, 0.69314718])
    """
    return LogSumExp(axis).apply((x,))[0]
