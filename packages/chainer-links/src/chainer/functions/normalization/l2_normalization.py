"""L2 normalization: divide by the Euclidean norm along some axes."""

from __future__ import annotations

from chainer import backend, utils
from chainer._ops.array_ops import sum as _sum
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable


class NormalizeL2(FunctionNode):
    """``y = x / (||x||_2 + eps)`` with the norm taken over ``axis``."""

    def __init__(self, eps=1e-5, axis=1) -> None:
        self.eps = eps
        self.axis = axis

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        (x_type,) = in_types
        type_check.expect(x_type.dtype.kind == "f")
        axes = self.axis if isinstance(self.axis, tuple) else (self.axis,)
        for axis in axes:
            type_check.expect(-x_type.ndim <= axis, axis < x_type.ndim)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0,))
        x = inputs[0]
        xp = backend.get_array_module(x)
        norm = xp.sqrt(xp.sum(xp.square(x), axis=self.axis, keepdims=True))
        norm += x.dtype.type(self.eps)
        return (utils.force_array(x / norm),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        (x,) = inputs
        squares = chainerx.sum(x * x, axis=self.axis, keepdims=True)
        # As backward below: where x is all zero the root sees 1, so its slope stays finite.
        zero = (squares == 0).astype(x.dtype)
        norm = chainerx.sqrt(squares + zero) - zero + self.eps
        return (x / norm,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        # gx = gy / (n + eps) - x * sum(x * gy) / (n * (n + eps) ** 2), n = ||x||. Where
        # x is all zero, its second term vanishes: the square root then sees 1 instead of
        # 0 so that no infinite slope turns into NaN in higher derivatives.
        (x,) = self.get_retained_inputs()
        gy = grad_outputs[0]
        squares = _sum(x * x, axis=self.axis, keepdims=True)
        zero = (squares.array == 0).astype(x.dtype)
        safe_norm = (squares + zero) ** 0.5
        norm = safe_norm - zero + self.eps
        x_gy = _sum(x * gy, axis=self.axis, keepdims=True)
        return (gy / norm - x * (x_gy / (safe_norm * norm * norm)),)


def normalize(x, eps=1e-5, axis=1) -> Variable:
    """Normalize input by L2 norm.

    :math:`y = x / (\\|x\\|_2 + \\epsilon)`, the norm taken along ``axis`` separately for
    every other index.

    Args:
        x: Input of floating-point dtype, e.g. ``(batch_size, n)``.
        eps: Added to the norm, so that zero vectors stay zero.
        axis: Axis (int) or axes (tuple of ints) of the norm.

    Returns:
        A variable of the shape and dtype of ``x``.

    Example:
        >>> x = numpy.array([[3.0, 4.0], [0.0, 0.0]], numpy.float32)
        >>> F.normalize(x).array.round(4)
        array([[0.6, 0.8],
               [0. , 0. ]], dtype=float32)
    """
    return NormalizeL2(eps, axis).apply((x,))[0]
