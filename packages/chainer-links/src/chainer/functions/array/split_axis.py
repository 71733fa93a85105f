"""``split_axis``: cut a variable into pieces along an axis."""

from __future__ import annotations

import importlib
from collections.abc import Iterable

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable

# The two modules use each other. import_module returns the module even while it is still
# loading, and even though the package binds the name 'concat' to the function.
_concat = importlib.import_module("chainer.functions.array.concat")

__all__ = ["SplitAxis", "split_axis"]


def _is_int(value) -> bool:
    return isinstance(value, (int, numpy.integer)) and not isinstance(value, bool)


class SplitAxis(FunctionNode):
    """Split the input along ``axis``; the gradient is the concatenation of the pieces'."""

    def __init__(self, indices_or_sections, axis: int) -> None:
        if _is_int(indices_or_sections):
            if indices_or_sections <= 0:
                raise ValueError(
                    f"the number of sections must be positive, got {indices_or_sections}"
                )
            self.sections = int(indices_or_sections)
            self.indices = None
        elif isinstance(indices_or_sections, Iterable):
            indices = tuple(indices_or_sections)
            if not all(_is_int(i) for i in indices):
                raise TypeError(f"indices must be integers, got {indices}")
            self.indices = tuple(int(i) for i in indices)
            self.sections = None
        else:
            raise TypeError(
                "indices_or_sections must be an int or a 1-D sequence of ints, got "
                f"{type(indices_or_sections).__name__}"
            )
        if not _is_int(axis):
            raise TypeError(f"axis must be an int, got {type(axis).__name__}: {axis!r}")
        self.axis = int(axis)

    # A plain check on the array (split_axis is on hot paths; see Concat).
    def _check_arrays(self, in_data: tuple) -> None:
        x = in_data[0]
        ndim = x.ndim
        if not -ndim <= self.axis < ndim:
            raise type_check.InvalidType(f"-{ndim} <= axis < {ndim}", f"axis={self.axis}")
        length = x.shape[self.axis]
        if self.sections is not None and length % self.sections:
            raise type_check.InvalidType(
                f"x.shape[{self.axis}] % sections == 0",
                f"{length} % {self.sections} != 0 (x.shape={x.shape})",
            )
        if not all(-length <= i <= length for i in self.indices or ()):
            raise type_check.InvalidType(
                f"-x.shape[{self.axis}] <= indices <= x.shape[{self.axis}]",
                f"indices={self.indices}, x.shape={x.shape}",
            )

    def _points(self, length: int) -> tuple:
        """Start of every piece, then ``length``."""
        if self.indices is None:
            if length % self.sections:
                raise ValueError(
                    f"an axis of length {length} cannot be split into {self.sections} equal pieces"
                )
            step = length // self.sections
            return tuple(range(0, length + 1, step)) if step else (0,) * (self.sections + 1)
        # Negative and too large indices mean what they mean in slices (as in numpy.split).
        points = (0, *(min(max(i + length if i < 0 else i, 0), length) for i in self.indices))
        if any(a > b for a, b in zip(points[1:], points[2:])):
            raise ValueError(
                f"indices must be sorted positions along the axis, got {self.indices} for "
                f"an axis of length {length}"
            )
        return (*points, length)

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        axis = self.axis % x.ndim
        length = x.shape[axis]
        points = self._points(length)
        lead = (slice(None),) * axis
        self._shapes = []
        ys = []
        for start, stop in zip(points[:-1], points[1:]):
            y = x[(*lead, slice(start, stop))]
            self._shapes.append(y.shape)
            ys.append(y)
        return tuple(ys)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        x = inputs[0]
        axis = self.axis % x.ndim
        points = self._points(x.shape[axis])
        return tuple(chainerx.split(x, list(points[1:-1]), axis))

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        if len(grad_outputs) == 1:
            return (grad_outputs[0],)
        grads = []
        xp = None
        for gy, shape in zip(grad_outputs, self._shapes):
            if gy is None:
                if xp is None:
                    xp = backend.get_array_module(*[g for g in grad_outputs if g is not None])
                gy = xp.zeros(shape, dtype=self.inputs[0].dtype)
            grads.append(gy)
        return (_concat.concat(grads, self.axis),)


def split_axis(x, indices_or_sections, axis: int, force_tuple: bool = True) -> tuple | Variable:
    """Split a variable into pieces along an axis.

    Args:
        x: Input variable or array.
        indices_or_sections: An int ``n`` splits ``x`` into ``n`` equal pieces (the length of
            the axis must be divisible by ``n``); a sorted 1-D sequence of ints gives the
            positions where ``x`` is cut, as in :func:`numpy.split`.
        axis: The axis to split.
        force_tuple: Return a tuple even when there is only one piece. When ``False`` a single
            piece is returned as a variable.

    Returns:
        A tuple of variables (or one variable, see ``force_tuple``).

    Example:
        >>> x = np.arange(12, dtype=np.float32).reshape(2, 6)
        >>> a, b, c = F.split_axis(x, 3, axis=1)
        >>> a.shape
        (2, 2)
        >>> [y.shape for y in F.split_axis(x, [1, 4], axis=1)]
        [(2, 1), (2, 3), (2, 2)]
    """
    ys = SplitAxis(indices_or_sections, axis).apply((x,))
    if force_tuple or len(ys) != 1:
        return ys
    return ys[0]
