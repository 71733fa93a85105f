"""Elementwise remainder of division, with the sign of the dividend."""

from __future__ import annotations

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._broadcast import expect_broadcastable, reduce_to
from chainer.functions.math._unary import round_toward_zero
from chainer.utils import type_check
from chainer.variable import Variable


class Fmod(FunctionNode):
    """``x - fix(x / divisor) * divisor``; the inputs broadcast against each other."""

    is_elementwise = True

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x", "divisor"))
        x, divisor = in_types
        type_check.expect(x.dtype.kind == "f", x.dtype == divisor.dtype)
        expect_broadcastable(x, divisor)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        x, divisor = inputs
        xp = backend.get_array_module(x, divisor)
        return (utils.force_array(xp.fmod(x, divisor), x.dtype),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x, divisor = self.get_retained_inputs()
        gy = grad_outputs[0]
        grads = []
        for i in indexes:
            if i == 0:
                g = gy
            else:
                # The quotient is piecewise constant: a constant of the gradient graph.
                xp = backend.get_array_module(x.array)
                quotient = round_toward_zero(xp, x.array / divisor.array).astype(gy.dtype)
                g = -gy * quotient
            grads.append(reduce_to(g, self.inputs[i].shape))
        return tuple(grads)


def fmod(x, divisor) -> Variable:
    """Elementwise remainder of ``x / divisor``, taking the sign of ``x`` (C's ``fmod``).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The dividend, of a floating-point
            dtype.
        divisor (:class:`~chainer.Variable` or :ref:`ndarray`): The divisor, of the dtype of
            ``x`` and a shape that broadcasts with it.

    Returns:
        ~chainer.Variable: ``x - fix(x / divisor) * divisor``, of the broadcast shape.

    Example:
        >>> F.fmod(np.array([-3.0, 3.0]), np.array([2.0, 2.0])).array
        array([-1.,  1.])
    """
    return Fmod().apply((x, divisor))[0]
