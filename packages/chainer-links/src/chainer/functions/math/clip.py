"""Clipping of values to an interval."""

from __future__ import annotations

import numpy

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable


class Clip(FunctionNode):
    """``min(max(x, x_min), x_max)``; the gradient passes where ``x`` lies in the interval."""

    is_elementwise = True

    def __init__(self, x_min, x_max) -> None:
        if x_min is None and x_max is None:
            raise ValueError("clip needs x_min or x_max (or both), got None for both")
        if x_min is not None and x_max is not None and x_min >= x_max:
            raise ValueError(f"x_min must be less than x_max, got x_min={x_min}, x_max={x_max}")
        self.x_min = x_min
        self.x_max = x_max

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        type_check.expect(in_types[0].dtype.kind == "f")

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0,))
        (x,) = inputs
        xp = backend.get_array_module(x)
        return (utils.force_array(xp.clip(x, self.x_min, self.x_max), x.dtype),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        # ChainerX's clip passes the gradient where x_min <= x <= x_max, as backward does.
        low = -numpy.inf if self.x_min is None else self.x_min
        high = numpy.inf if self.x_max is None else self.x_max
        return (chainerx.clip(inputs[0], low, high),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x = self.get_retained_inputs()[0].array
        inside = backend.get_array_module(x).ones(x.shape, dtype=bool)
        if self.x_min is not None:
            inside &= x >= self.x_min
        if self.x_max is not None:
            inside &= x <= self.x_max
        gy = grad_outputs[0]
        return (gy * inside.astype(gy.dtype),)


def clip(x, x_min, x_max) -> Variable:
    """Clip (limit) the elements of ``x`` to ``[x_min, x_max]``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.
        x_min (float or None): The lower bound; ``None`` for no lower bound.
        x_max (float or None): The upper bound; ``None`` for no upper bound.

    Returns:
        ~chainer.Variable: The clipped values, of the shape and dtype of ``x``.

    Raises:
        ValueError: When both bounds are ``None`` or ``x_min >= x_max``.

    Example:
        >>> F.clip(np.array([-2.0, 0.5, 3.0]), -1.0, 1.0).array
        array([-1. ,  0.5,  1. ])
    """
    return Clip(x_min, x_max).apply((x,))[0]
