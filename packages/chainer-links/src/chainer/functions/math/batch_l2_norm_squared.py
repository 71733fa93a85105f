"""Squared L2 norm of each sample of a batch."""

from __future__ import annotations

from chainer import backend, utils
from chainer._ops.array_ops import broadcast_to, reshape
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable


class BatchL2NormSquared(FunctionNode):
    """``sum(x[i] ** 2)`` over all axes but the first."""

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        type_check.expect(in_types[0].dtype.kind == "f", in_types[0].ndim >= 2)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0,))
        (x,) = inputs
        xp = backend.get_array_module(x)
        flat = x.reshape(x.shape[0], utils.size_of_shape(x.shape[1:]))
        # Row-wise dot products in one pass, without a squared temporary.
        y = xp.einsum("ij,ij->i", flat, flat)
        return (utils.force_array(y, x.dtype),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        (x,) = inputs
        flat = x.reshape(x.shape[0], utils.size_of_shape(x.shape[1:]))
        return ((flat * flat).sum(axis=1),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        gy = reshape(grad_outputs[0], (len(x),) + (1,) * (x.ndim - 1))
        return (broadcast_to(gy, x.shape) * x * 2,)


def batch_l2_norm_squared(x) -> Variable:
    """Squared L2 norm of each sample: ``sum(x[i] ** 2)`` over all axes but the first.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape ``(B, ...)`` with
            at least two axes and a floating-point dtype.

    Returns:
        ~chainer.Variable: The ``(B,)`` squared norms.

    Example:
        >>> F.batch_l2_norm_squared(np.array([[3.0, 4.0], [1.0, 0.0]])).array
        array([25.,  1.])
    """
    return BatchL2NormSquared().apply((x,))[0]
