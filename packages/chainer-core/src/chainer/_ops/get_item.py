"""Indexing a variable: ``x[slices]`` with basic and advanced (integer/boolean) indexes."""

from __future__ import annotations

import numpy

from chainer.function_node import Fallback, FunctionNode
from chainer.variable import Variable


def _normalize(slices) -> tuple:
    if isinstance(slices, list) and not all(isinstance(s, (int, numpy.integer)) for s in slices):
        # Chainer's rule (NumPy's before 1.23): a list that is not all integers is a tuple of
        # indexes, so ``[slice(1, None)]`` is ``x[1:]`` and ``[[0, 1], [1, 2]]`` picks pairs.
        slices = tuple(slices)
    if not isinstance(slices, tuple):
        slices = (slices,)
    out = []
    for s in slices:
        if isinstance(s, Variable):
            s = s._array
        elif isinstance(s, list):
            s = numpy.asarray(s)
            if s.size == 0:
                s = s.astype(numpy.intp)
        out.append(s)
    return tuple(out)


def _is_advanced(slices: tuple) -> bool:
    return any(
        not isinstance(s, (int, numpy.integer, slice)) and s is not None and s is not Ellipsis
        for s in slices
    )


class GetItem(FunctionNode):
    def __init__(self, slices) -> None:
        self.slices = _normalize(slices)
        if sum(1 for s in self.slices if s is Ellipsis) > 1:
            raise ValueError(f"get_item: an index can hold one Ellipsis, got {slices!r}")  # v7

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        try:
            y = x[self.slices]
        except IndexError as e:
            # Stays an IndexError: iterating over a variable relies on it, as on an array.
            raise IndexError(
                f"get_item: index {self.slices!r} is invalid for shape {x.shape}: {e}"
            ) from None
        if not hasattr(y, "shape") or isinstance(y, numpy.generic):
            y = numpy.asarray(y)
        return (y,)

    def forward_chainerx(self, inputs: tuple):
        # ChainerX indexes (basic and advanced) as NumPy does, and differentiates it; a bad
        # index goes to the NumPy forward, which raises the error.
        try:
            return (inputs[0][self.slices],)
        except IndexError:
            return Fallback

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        node = self.inputs[0]
        return GetItemGrad(self.slices, node.shape, node.dtype).apply(grad_outputs)


class GetItemGrad(FunctionNode):
    """Scatter the gradient back to the indexed positions (summing repeated indexes)."""

    def __init__(self, slices: tuple, in_shape: tuple, in_dtype) -> None:
        self.slices = slices
        self.in_shape = in_shape
        self.in_dtype = in_dtype

    def forward(self, inputs: tuple) -> tuple:
        gy = inputs[0]
        xp = numpy if type(gy) is numpy.ndarray else _array_module(gy)
        gx = xp.zeros(self.in_shape, dtype=gy.dtype)
        if _is_advanced(self.slices):
            xp.add.at(gx, self.slices, gy)  # repeated indexes accumulate
        else:
            gx[self.slices] = gy
        return (gx,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return GetItem(self.slices).apply(grad_outputs)


def _array_module(array):
    from chainer import backend

    return backend.get_array_module(array)


def get_item(x, slices) -> Variable:
    """``x[slices]`` as a differentiable function (basic and advanced indexing)."""
    return GetItem(slices).apply((x,))[0]


def _getitem(self, slices):
    return GetItem(slices).apply((self,))[0]


OPERATORS = {"__getitem__": _getitem}
