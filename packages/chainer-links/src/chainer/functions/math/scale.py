"""Multiplication by a scale broadcast along some axes."""

from __future__ import annotations

from chainer.functions.math._broadcast import expand_along
from chainer.variable import Variable, as_variable


def scale(x, y, axis: int = 1) -> Variable:
    """Multiply ``x`` by ``y``, ``y``'s axes lining up with those of ``x`` from ``axis`` on.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The input, of shape
            ``(..., y.shape..., ...)``.
        y (:class:`~chainer.Variable` or :ref:`ndarray`): The scale, of shape
            ``x.shape[axis:axis + y.ndim]`` and the dtype of ``x``.
        axis (int): The first axis of ``x`` that ``y``'s axes line up with.

    Returns:
        ~chainer.Variable: ``x * y`` with ``y`` broadcast, of the shape of ``x``.

    Raises:
        InvalidType: When ``y``'s shape does not line up with ``x``'s.

    Example:
        >>> F.scale(np.ones((2, 3, 4)), np.arange(3.0)).array[0, :, 0]
        array([0., 1., 2.])
    """
    x = as_variable(x)
    return x * expand_along(as_variable(y), x.shape, axis)
