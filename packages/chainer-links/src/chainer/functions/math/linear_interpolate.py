"""Elementwise linear interpolation between two arrays."""

from __future__ import annotations

from chainer import utils
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable


class LinearInterpolate(FunctionNode):
    """``p * x + (1 - p) * y`` for three arrays of one shape and dtype."""

    is_elementwise = True

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("p", "x", "y"))
        p, x, y = in_types
        type_check.expect(
            p.dtype.kind == "f",
            p.dtype == x.dtype,
            x.dtype == y.dtype,
            p.shape == x.shape,
            x.shape == y.shape,
        )

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1, 2))
        p, x, y = inputs
        return (utils.force_array(p * (x - y) + y),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        p, x, y = inputs
        return (p * (x - y) + y,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        p, x, y = self.get_retained_inputs()
        g = grad_outputs[0]
        grads = []
        for i in indexes:
            if i == 0:
                grads.append(g * (x - y))
            elif i == 1:
                grads.append(g * p)
            else:
                grads.append(g * (1 - p))
        return tuple(grads)


def linear_interpolate(p, x, y) -> Variable:
    """Elementwise linear interpolation ``p * x + (1 - p) * y``.

    Args:
        p (:class:`~chainer.Variable` or :ref:`ndarray`): The weights of ``x``, of a
            floating-point dtype.
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The first end, like ``p``.
        y (:class:`~chainer.Variable` or :ref:`ndarray`): The second end, like ``p``.

    Returns:
        ~chainer.Variable: The interpolated values, of the shape and dtype of ``p``.

    Example:
        >>> F.linear_interpolate(np.array([0.25]), np.array([4.0]), np.array([0.0])).array
        array([1.])
    """
    return LinearInterpolate().apply((p, x, y))[0]
