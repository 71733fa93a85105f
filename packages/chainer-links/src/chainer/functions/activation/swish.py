"""Swish: ``x * sigmoid(beta * x)`` with a learned ``beta``."""

from __future__ import annotations

from chainer import backend
from chainer._ops._util import force_array
from chainer._ops.array_ops import reshape, sum_to
from chainer.function_node import FunctionNode
from chainer.functions.activation.prelu import channel_param_shape, check_channel_param
from chainer.functions.activation.sigmoid import sigmoid, sigmoid_array
from chainer.variable import Variable


class Swish(FunctionNode):
    """Swish; it keeps both inputs and recomputes the sigmoid in backward."""

    def check_type_forward(self, in_types) -> None:
        check_channel_param(in_types, "beta")

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        x, beta = inputs
        xp = backend.get_array_module(x)
        beta = beta.reshape(channel_param_shape(x.ndim, beta.shape))
        return (force_array(x * sigmoid_array(xp, beta * x)),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        x, beta = inputs
        beta = beta.reshape(channel_param_shape(x.ndim, beta.shape))
        return (x * chainerx.sigmoid(beta * x),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x, beta = self.get_retained_inputs()
        gy = grad_outputs[0]
        beta_b = reshape(beta, channel_param_shape(x.ndim, beta.shape))
        s = sigmoid(beta_b * x)
        gy_ds = gy * s * (1 - s)  # gy times the derivative of the sigmoid at beta * x
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(gy * s + gy_ds * beta_b * x)
            else:
                ret.append(reshape(sum_to(gy_ds * x * x, beta_b.shape), beta.shape))
        return tuple(ret)


def swish(x, beta) -> Variable:
    """Swish activation: :math:`f(x) = x \\cdot \\sigma(\\beta x)`.

    ``beta`` holds one value per position of ``x``'s axes ``1 .. beta.ndim`` (typically one
    per channel) and is broadcast over the rest.

    Args:
        x: Input variable or array of floating-point dtype, of shape
            ``(N, *beta.shape, ...)``.
        beta: Variable or array of ``x``'s dtype, with
            ``beta.shape == x.shape[1:1 + beta.ndim]``.

    Returns:
        A variable of the shape and dtype of ``x``.

    Example:
        >>> x = numpy.array([[-1.0, 2.0]], numpy.float32)
        >>> F.swish(x, numpy.ones(2, numpy.float32)).array
        array([[-0.2689414,  1.7615942]], dtype=float32)
    """
    return Swish().apply((x, beta))[0]
