"""Cumulative product along an axis."""

from __future__ import annotations

import numpy

from chainer import backend, utils
from chainer._ops.array_ops import broadcast_to, expand_dims, reshape, transpose
from chainer._ops.array_ops import sum as sum_
from chainer.function_node import FunctionNode
from chainer.functions.math._axis import check_single_axis, expect_axes
from chainer.functions.math.cumsum import reverse_cumsum
from chainer.utils import type_check
from chainer.variable import Variable


class Cumprod(FunctionNode):
    """Cumulative product along ``axis`` (over the flattened input when ``axis`` is None)."""

    def __init__(self, axis=None) -> None:
        check_single_axis(axis)
        self.axis = axis

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        type_check.expect(in_types[0].dtype.kind == "f")
        expect_axes(in_types[0], None if self.axis is None else (self.axis,))

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        (x,) = inputs
        xp = backend.get_array_module(x)
        return (utils.force_array(xp.cumprod(x, axis=self.axis), x.dtype),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        (y,) = self.get_retained_outputs()
        gy = grad_outputs[0]
        shape = x.shape
        if self.axis is None:
            x = reshape(x, (x.size,))
            axis = 0
        else:
            axis = self.axis % x.ndim
        gx = _cumprod_grad(x, y, gy, axis)
        return (reshape(gx, shape) if self.axis is None else gx,)


def leave_one_out(x: Variable) -> Variable:
    """``(..., n) -> (..., n, n)``: row ``j`` is ``x`` with its element ``j`` set to one.

    Products along the last axis of the result skip one element each, without dividing, so
    they stay exact (to every order of derivative) where ``x`` has zeros.
    """
    n = x.shape[-1]
    xp = backend.get_array_module(x.array)
    eye = xp.eye(n, dtype=x.dtype)
    rows = broadcast_to(expand_dims(x, -2), x.shape[:-1] + (n, n))
    return rows * (1 - eye) + eye


def _cumprod_grad(x: Variable, y: Variable, gy: Variable, axis: int) -> Variable:
    """``gx[j] = sum_{i >= j} gy[i] * prod_{k <= i, k != j} x[k]``.

    Without zeros in ``x`` this is ``reverse_cumsum(gy * y) / x``. With zeros it is computed
    as written, from the cumulative products of :func:`leave_one_out` (``n x n`` per slice).
    """
    if not (x.array == 0).any():
        return reverse_cumsum(gy * y, axis) / x
    xp = backend.get_array_module(x.array)
    n = x.shape[axis]
    perm = [a for a in range(x.ndim) if a != axis] + [axis]
    x_last = transpose(x, perm)
    gy_last = expand_dims(transpose(gy, perm), -2)
    products = cumprod(leave_one_out(x_last), -1)  # [..., j, i] = prod_{k <= i, k != j} x_k
    up_to_i = xp.triu(xp.ones((n, n), dtype=x.dtype))  # keep i >= j
    gx_last = sum_(broadcast_to(gy_last, products.shape) * products * up_to_i, axis=-1)
    return transpose(gx_last, tuple(numpy.argsort(perm).tolist()))


def cumprod(x, axis=None) -> Variable:
    """Cumulative product of the elements of ``x`` along ``axis``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.
        axis (None or int): The axis to accumulate along; ``None`` accumulates over the
            flattened input and returns a 1-D result.

    Returns:
        ~chainer.Variable: The running products, of the shape of ``x`` (1-D for
        ``axis=None``). The gradient is exact also where ``x`` has zeros.

    Example:
        >>> F.cumprod(np.array([[1.0, 2.0], [3.0, 4.0]]), axis=1).array
        array([[ 1.,  2.],
               [ 3., 12.]])
    """
    return Cumprod(axis).apply((x,))[0]
