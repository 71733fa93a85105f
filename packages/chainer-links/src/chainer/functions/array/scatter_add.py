"""``scatter_add``: add values to selected elements of a variable (``a[slices] += b``)."""

from __future__ import annotations

from chainer import backend
from chainer._ops.get_item import get_item
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable

__all__ = ["ScatterAdd", "scatter_add"]


def _normalize_slices(slices) -> tuple:
    # A list of ints is one integer-array index, as in Chainer's get_item.
    if isinstance(slices, list):
        if all(isinstance(s, int) for s in slices):
            slices = (slices,)
        return tuple(slices)
    if isinstance(slices, tuple):
        return slices
    return (slices,)


class ScatterAdd(FunctionNode):
    """``y = a.copy(); y[slices] += b`` where repeated indexes accumulate."""

    def __init__(self, slices) -> None:
        self.slices = tuple(
            s.array if isinstance(s, Variable) else s for s in _normalize_slices(slices)
        )
        if sum(1 for s in self.slices if s is Ellipsis) > 1:
            raise ValueError(f"scatter_add: an index can hold one Ellipsis, got {slices!r}")

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("a", "b"))
        a_type, b_type = in_types
        indexed = sum(1 for s in self.slices if s is not None and s is not Ellipsis)
        type_check.expect(a_type.dtype == b_type.dtype, a_type.ndim >= indexed)

    def forward(self, inputs: tuple) -> tuple:
        a, b = inputs
        xp = backend.get_array_module(a)
        selected = a[self.slices].shape
        if selected != b.shape:
            raise ValueError(
                f"b must have the shape of a[slices], {selected}, got {b.shape} "
                "(scatter_add does not broadcast b)"
            )
        y = a.copy()
        xp.add.at(y, self.slices, b)
        return (y,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        gy = grad_outputs[0]
        return tuple(gy if i == 0 else get_item(gy, self.slices) for i in indexes)


def scatter_add(a, slices, b) -> Variable:
    """Add ``b`` to the elements of ``a`` selected by ``slices``, out of place.

    Unlike ``a[slices] += b`` in NumPy, an element selected several times receives every
    addition (as :func:`numpy.add.at`).

    Args:
        a: Input variable or array.
        slices: An index of ``a``: ints, slices, ``None``, ``Ellipsis``, int or bool arrays, or a
            tuple of them (a list of ints is one integer-array index).
        b: The values to add; its shape must be ``a[slices].shape`` (no broadcasting).

    Returns:
        A variable of the shape of ``a``.

    Example:
        >>> a = np.zeros((3,), np.float32)
        >>> b = np.array([1, 2, 3], np.float32)
        >>> F.scatter_add(a, [0, 2, 0], b).array
        array([4., 0., 2.], dtype=float32)
    """
    return ScatterAdd(slices).apply((a, b))[0]
