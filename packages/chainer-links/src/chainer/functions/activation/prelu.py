"""Parametric ReLU: ``x`` for ``x >= 0``, ``W * x`` otherwise, with a learned slope ``W``."""

from __future__ import annotations

from chainer import backend
from chainer._ops._util import force_array
from chainer._ops.array_ops import reshape, sum_to
from chainer.function_node import FunctionNode
from chainer.functions.activation._scale_grad import ScaleGrad
from chainer.utils import type_check
from chainer.variable import Variable


def channel_param_shape(x_ndim: int, param_shape: tuple) -> tuple:
    """Shape that broadcasts a parameter over ``x``'s axes ``1 .. 1 + param.ndim``."""
    return (1, *param_shape) + (1,) * (x_ndim - 1 - len(param_shape))


def check_channel_param(in_types, param_name: str) -> None:
    """Type check of ``(x, param)`` where ``param.shape == x.shape[1:1 + param.ndim]``."""
    type_check.argname(in_types, ("x", param_name))
    x_type, p_type = in_types
    type_check.expect(
        x_type.dtype.kind == "f",
        p_type.dtype == x_type.dtype,
        x_type.ndim >= p_type.ndim + 1,
        x_type.shape[1 : 1 + type_check.eval(p_type.ndim)] == p_type.shape,
    )


class PReLU(FunctionNode):
    """Parametric ReLU; it keeps both inputs for the gradients of each."""

    def check_type_forward(self, in_types) -> None:
        check_channel_param(in_types, "W")

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        x, W = inputs
        xp = backend.get_array_module(x)
        W = W.reshape(channel_param_shape(x.ndim, W.shape))
        return (force_array(xp.where(x >= 0, x, x * W)),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        x, W = inputs
        W = W.reshape(channel_param_shape(x.ndim, W.shape))
        return (chainerx.where(x >= 0, x, x * W),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x, W = self.get_retained_inputs()
        gy = grad_outputs[0]
        negative = x.array < 0
        W_b = reshape(W, channel_param_shape(x.ndim, W.shape))
        ret = []
        for i in indexes:
            if i == 0:
                gx = ScaleGrad(~negative).apply((gy,))[0]
                ret.append(gx + ScaleGrad(negative).apply((gy * W_b,))[0])
            else:
                gW = ScaleGrad(negative).apply((gy * x,))[0]
                ret.append(reshape(sum_to(gW, W_b.shape), W.shape))
        return tuple(ret)


def prelu(x, W) -> Variable:
    """Parametric ReLU: :math:`f(x) = x` if :math:`x \\ge 0`, else :math:`W x`.

    ``W`` holds one slope per position of ``x``'s axes ``1 .. W.ndim`` (typically one per
    channel) and is broadcast over the rest.

    Args:
        x: Input variable or array of floating-point dtype, of shape
            ``(N, *W.shape, ...)``.
        W: Slopes of the negative part, of ``x``'s dtype, with
            ``W.shape == x.shape[1:1 + W.ndim]``.

    Returns:
        A variable of the shape and dtype of ``x``.

    Example:
        >>> x = numpy.array([[-1.0, 2.0], [-3.0, -4.0]], numpy.float32)
        >>> W = numpy.array([0.1, 0.5], numpy.float32)
        >>> F.prelu(x, W).array
        array([[-0.1,  2. ],
               [-0.3, -2. ]], dtype=float32)
    """
    return PReLU().apply((x, W))[0]
