"""Broadcasting helpers for the elementwise functions of several inputs."""

from __future__ import annotations

import numpy

from chainer._ops.array_ops import broadcast_to, reshape, sum_to
from chainer.utils import type_check
from chainer.variable import Variable


def expect_broadcastable(*in_types) -> None:
    """Raise ``InvalidType`` unless the shapes of ``in_types`` broadcast together."""
    shapes = [type_check.eval(t.shape) for t in in_types]
    try:
        numpy.broadcast_shapes(*shapes)
    except ValueError:
        raise type_check.InvalidType(
            "shapes broadcastable to one another",
            "cannot broadcast " + ", ".join(str(tuple(s)) for s in shapes),
        ) from None


def reduce_to(g: Variable, shape: tuple) -> Variable:
    """Sum a gradient over the axes its input was broadcast along."""
    return g if g.shape == shape else sum_to(g, shape)


def expand_along(y: Variable, x_shape: tuple, axis: int) -> Variable:
    """Broadcast ``y`` to ``x_shape``, its axes matching those of ``x`` from ``axis`` on.

    Raises:
        InvalidType: When ``y.shape`` is not ``x_shape[axis:axis + y.ndim]``.
    """
    if x_shape[axis : axis + y.ndim] != y.shape or not 0 <= axis <= len(x_shape) - y.ndim:
        raise type_check.InvalidType(
            f"x.shape[{axis}:{axis} + y.ndim] == y.shape",
            f"x.shape={x_shape}, y.shape={y.shape}, axis={axis}",
        )
    lead = (1,) * axis
    trail = (1,) * (len(x_shape) - axis - y.ndim)
    return broadcast_to(reshape(y, lead + y.shape + trail), x_shape)
