"""Product of the elements over axes."""

from __future__ import annotations

import numpy

from chainer import backend, utils
from chainer._ops.array_ops import broadcast_to, reshape, transpose
from chainer.function_node import FunctionNode
from chainer.functions.math._axis import expect_axes, kept_shape, normalize_axes
from chainer.functions.math.cumprod import leave_one_out
from chainer.utils import type_check
from chainer.variable import Variable


class Prod(FunctionNode):
    """Product over ``axis`` (all axes when None)."""

    def __init__(self, axis=None, keepdims: bool = False) -> None:
        self.axis = normalize_axes(axis)
        self.keepdims = keepdims

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        type_check.expect(in_types[0].dtype.kind == "f")
        expect_axes(in_types[0], self.axis)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        (x,) = inputs
        xp = backend.get_array_module(x)
        return (utils.force_array(xp.prod(x, axis=self.axis, keepdims=self.keepdims), x.dtype),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        """``gx[j] = gy * prod(x[k] for k != j)``: ``gy * y / x`` unless ``x`` has zeros."""
        (x,) = self.get_retained_inputs()
        (y,) = self.get_retained_outputs()
        kept = kept_shape(x.shape, self.axis)
        gy = broadcast_to(reshape(grad_outputs[0], kept), x.shape)
        if not (x.array == 0).any():
            return (gy * broadcast_to(reshape(y, kept), x.shape) / x,)
        return (gy * _products_of_others(x, self.axis),)


def _products_of_others(x: Variable, axis) -> Variable:
    """``prod(x[k] for k != j)`` over the reduced axes, for each ``j``, without dividing."""
    ndim = x.ndim
    reduced = list(range(ndim)) if axis is None else sorted(a % ndim for a in axis)
    perm = [a for a in range(ndim) if a not in reduced] + reduced
    x_moved = transpose(x, perm)
    lead = x_moved.shape[: ndim - len(reduced)]
    flat = reshape(x_moved, lead + (-1,))
    others = prod(leave_one_out(flat), axis=-1)
    return transpose(reshape(others, x_moved.shape), tuple(numpy.argsort(perm).tolist()))


def prod(x, axis=None, keepdims: bool = False) -> Variable:
    """Product of the elements of ``x`` over ``axis``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.
        axis (None, int or tuple of int): The axes to reduce; ``None`` reduces all of them.
        keepdims (bool): Keep the reduced axes as axes of length one.

    Returns:
        ~chainer.Variable: The products. The gradient is exact also where ``x`` has zeros.

    Example:
        >>> F.prod(np.array([[1.0, 2.0], [3.0, 4.0]]), axis=1).array
        array([ 2., 12.])
    """
    return Prod(axis, keepdims).apply((x,))[0]
