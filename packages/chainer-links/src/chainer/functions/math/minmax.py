"""Maxima and minima over axes, and the indices where they are."""

from __future__ import annotations

import numpy

from chainer import backend, utils
from chainer._ops.array_ops import broadcast_to, reshape
from chainer.function_node import FunctionNode
from chainer.functions.math._axis import (
    check_single_axis,
    expect_axes,
    kept_shape,
    normalize_axes,
)
from chainer.utils import type_check
from chainer.variable import Variable


class _Extremum(FunctionNode):
    """``amax`` or ``amin``; the gradient flows to every element equal to the extremum."""

    _xp_name = ""

    def __init__(self, axis=None, keepdims: bool = False) -> None:
        self.axis = normalize_axes(axis)
        self.keepdims = keepdims

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        type_check.expect(in_types[0].dtype.kind == "f")
        expect_axes(in_types[0], self.axis)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        (x,) = inputs
        xp = backend.get_array_module(x)
        y = getattr(xp, self._xp_name)(x, axis=self.axis, keepdims=self.keepdims)
        return (utils.force_array(y),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        # ChainerX's gradient goes to every element equal to the extremum, as backward's.
        reduce = getattr(chainerx, self._xp_name)
        return (reduce(inputs[0], axis=self.axis, keepdims=self.keepdims),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        (y,) = self.get_retained_outputs()
        gy = grad_outputs[0]
        if not self.keepdims:
            kept = kept_shape(x.shape, self.axis)
            y = reshape(y, kept)
            gy = reshape(gy, kept)
        mask = (x.array == y.array).astype(gy.dtype)
        return (broadcast_to(gy, x.shape) * mask,)


class Max(_Extremum):
    _xp_name = "amax"


class Min(_Extremum):
    _xp_name = "amin"


class _IndexOfExtremum(FunctionNode):
    """``argmax`` or ``argmin`` as ``int32``; an index has no gradient."""

    _xp_name = ""

    def __init__(self, axis=None) -> None:
        check_single_axis(axis)
        self.axis = axis

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        type_check.expect(in_types[0].dtype.kind == "f")
        expect_axes(in_types[0], None if self.axis is None else (self.axis,))

    def forward(self, inputs: tuple) -> tuple:
        (x,) = inputs
        xp = backend.get_array_module(x)
        y = getattr(xp, self._xp_name)(x, axis=self.axis)
        return (utils.force_array(y, numpy.int32),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        y = getattr(chainerx, self._xp_name)(inputs[0], axis=self.axis)
        return (y.astype(numpy.int32),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return (None,)


class ArgMax(_IndexOfExtremum):
    _xp_name = "argmax"


class ArgMin(_IndexOfExtremum):
    _xp_name = "argmin"


def max(x, axis=None, keepdims: bool = False) -> Variable:
    """Maximum of the elements of ``x`` over ``axis``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.
        axis (None, int or tuple of int): The axes to reduce; ``None`` reduces all of them.
        keepdims (bool): Keep the reduced axes as axes of length one.

    Returns:
        ~chainer.Variable: The maxima. The gradient goes to every element equal to its maximum.

    Example:
        >>> F.max(np.array([[1.0, 4.0], [3.0, 2.0]]), axis=1).array
        array([4., 3.])
    """
    return Max(axis, keepdims).apply((x,))[0]


def min(x, axis=None, keepdims: bool = False) -> Variable:
    """Minimum of the elements of ``x`` over ``axis``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.
        axis (None, int or tuple of int): The axes to reduce; ``None`` reduces all of them.
        keepdims (bool): Keep the reduced axes as axes of length one.

    Returns:
        ~chainer.Variable: The minima. The gradient goes to every element equal to its minimum.

    Example:
        >>> F.min(np.array([[1.0, 4.0], [3.0, 2.0]]), axis=1).array
        array([1., 2.])
    """
    return Min(axis, keepdims).apply((x,))[0]


def argmax(x, axis=None) -> Variable:
    """Index of the maximum of ``x`` along ``axis`` (of the flattened array when ``None``).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.
        axis (None or int): The axis to search.

    Returns:
        ~chainer.Variable: ``int32`` indices; not differentiable.

    Example:
        >>> F.argmax(np.array([[1.0, 4.0], [3.0, 2.0]]), axis=1).array
        array([1, 0], dtype=int32)
    """
    return ArgMax(axis).apply((x,))[0]


def argmin(x, axis=None) -> Variable:
    """Index of the minimum of ``x`` along ``axis`` (of the flattened array when ``None``).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.
        axis (None or int): The axis to search.

    Returns:
        ~chainer.Variable: ``int32`` indices; not differentiable.

    Example:
        >>> F.argmin(np.array([[1.0, 4.0], [3.0, 2.0]]), axis=1).array
        array([0, 1], dtype=int32)
    """
    return ArgMin(axis).apply((x,))[0]
