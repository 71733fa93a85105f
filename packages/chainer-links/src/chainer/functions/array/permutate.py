"""``permutate``: reorder a variable along an axis by a permutation."""

from __future__ import annotations

import numpy

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable

__all__ = ["Permutate", "permutate"]


def _check_permutation(indices) -> None:
    """Raise ``ValueError`` unless ``indices`` is a permutation of ``range(len(indices))``."""
    host = backend.CpuDevice().send(indices)
    n = len(host)
    outside = host[(host < 0) | (host >= n)]
    if outside.size:
        raise ValueError(f"indices must lie in [0, {n}), got {int(outside[0])}")
    counts = numpy.bincount(host, minlength=n)
    if (counts > 1).any():
        raise ValueError(f"indices must not repeat, got {int(counts.argmax())} twice or more")


def _inverse(indices):
    xp = backend.get_array_module(indices)
    inverse = xp.empty_like(indices)
    inverse[indices] = xp.arange(len(indices), dtype=indices.dtype)
    return inverse


class Permutate(FunctionNode):
    """``y[..., i, ...] = x[..., indices[i], ...]`` along ``axis`` (inverted if ``inv``).

    As in Chainer v7 the permutation is an attribute of the node (``indices``, a 1-D int array),
    not an input: the node has the one input ``x``.
    """

    def __init__(self, indices, axis: int = 0, inv: bool = False) -> None:
        self.indices = indices
        self.axis = axis
        self.inv = inv

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        (x_type,) = in_types
        if self.axis < 0:
            type_check.expect(x_type.ndim >= -self.axis)
        else:
            type_check.expect(x_type.ndim > self.axis)
        indices = self.indices
        type_check.expect(
            type_check.make_variable(indices.dtype.kind, "indices.dtype.kind") == "i",
            type_check.make_variable(indices.ndim, "indices.ndim") == 1,
        )
        type_check.expect(
            x_type.shape[self.axis] == type_check.make_variable(len(indices), "len(indices)")
        )

    def forward(self, inputs: tuple) -> tuple:
        (x,) = inputs
        indices = self.indices
        # Checking costs a host copy on GPUs: there it is left to debug mode.
        if type(indices) is numpy.ndarray or chainer.is_debug():
            _check_permutation(indices)
        if self.inv:
            indices = _inverse(indices)
        return (x[(slice(None),) * (self.axis % x.ndim) + (indices,)],)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        (x,) = inputs
        indices = backend.CpuDevice().send(self.indices)  # checked on the host, as NumPy's
        _check_permutation(indices)
        if self.inv:
            indices = _inverse(indices)
        return (x[(slice(None),) * (self.axis % x.ndim) + (indices,)],)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return Permutate(self.indices, self.axis, not self.inv).apply(grad_outputs)


def permutate(x, indices, axis: int = 0, inv: bool = False) -> Variable:
    """Permute a variable along an axis.

    ``y[..., i, ...] = x[..., indices[i], ...]`` (with ``...`` covering the axes before
    ``axis``); with ``inv=True`` the inverse permutation is applied:
    ``y[..., indices[i], ...] = x[..., i, ...]``.

    Args:
        x: Input variable or array.
        indices: A permutation of ``range(x.shape[axis])``: a 1-D int array or variable.
        axis: The axis to permute.
        inv: Apply the inverse permutation.

    Returns:
        The permuted variable.

    Example:
        >>> x = np.arange(6, dtype=np.float32).reshape(3, 2)
        >>> F.permutate(x, np.array([2, 0, 1], np.int32)).array
        array([[4., 5.],
               [0., 1.],
               [2., 3.]], dtype=float32)
    """
    if isinstance(indices, Variable):
        indices = indices.array
    if not isinstance(indices, chainer.get_array_types()):
        raise TypeError(
            f"permutate: indices must be an int array or Variable, got {type(indices).__name__}"
        )
    return Permutate(indices, axis, inv).apply((x,))[0]
