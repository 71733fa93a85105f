"""``as_strided``: a view of a variable's memory with any shape, strides and offset.

Positions are counted in elements of one flat *storage*: the memory of the array that owns
``x``'s data. A geometry (shape, strides, offset) maps every element of an array to a storage
position. The output reads the storage through its geometry; its gradient adds the output
gradient onto storage positions and reads them back through ``x``'s geometry (dividing by the
number of elements of ``x`` sharing a position, when ``x`` overlaps itself).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.variable import Variable

__all__ = ["AsStrided", "AsStridedGrad", "as_strided"]


class _Geometry(NamedTuple):
    """Element ``index`` of the array is storage position ``offset + dot(index, strides)``."""

    shape: tuple
    strides: tuple
    offset: int

    def positions(self, xp):
        """The storage position of every element, as an int array of ``shape``."""
        pos = xp.full(self.shape, self.offset, dtype=numpy.int64)
        for axis, (n, stride) in enumerate(zip(self.shape, self.strides)):
            steps = xp.arange(n, dtype=numpy.int64) * stride
            pos += steps.reshape((n,) + (1,) * (len(self.shape) - axis - 1))
        return pos

    def bounds(self) -> tuple | None:
        """The lowest and highest storage positions, ``None`` for an empty array."""
        if 0 in self.shape:
            return None
        low = high = self.offset
        for n, stride in zip(self.shape, self.strides):
            if stride < 0:
                low += (n - 1) * stride
            else:
                high += (n - 1) * stride
        return low, high


def _address(array) -> int:
    data = array.data
    return data.ptr if hasattr(data, "ptr") else array.ctypes.data  # CuPy / NumPy


def _storage(x) -> tuple:
    """``(flat storage, geometry of x in it)``.

    The storage is the contiguous array owning ``x``'s memory. When there is none (``x`` views
    foreign memory, or a buffer of another dtype), ``x``'s own elements in C order are used.
    """
    itemsize = x.itemsize
    root = x
    # The chain of bases may pass through non-arrays (the buffer holder of a NumPy
    # as_strided view): the storage is the last array of x's dtype on it.
    base = x.base
    while base is not None:
        if isinstance(base, type(x)) and base.dtype == x.dtype:
            root = base
        base = getattr(base, "base", None)
    offset, remainder = divmod(_address(x) - _address(root), itemsize)
    if (
        (root.flags.c_contiguous or root.flags.f_contiguous)
        and remainder == 0
        and all(s % itemsize == 0 for s in x.strides)
    ):
        geometry = _Geometry(x.shape, tuple(s // itemsize for s in x.strides), offset)
        bounds = geometry.bounds()
        if bounds is None or (bounds[0] >= 0 and bounds[1] < root.size):
            return root.reshape(-1, order="A"), geometry
    xp = backend.get_array_module(x)
    contiguous = xp.ascontiguousarray(x)
    strides = tuple(s // itemsize for s in contiguous.strides)
    return contiguous.reshape(-1), _Geometry(x.shape, strides, 0)


def _strided_view(x, shape: tuple, strides: tuple, storage_offset: int | None) -> tuple:
    """``(view, geometry of x, geometry of the view)``: the storage of ``x`` read with
    ``shape``, ``strides`` and ``storage_offset`` counted in elements (``None``: x's own)."""
    xp = backend.get_array_module(x)
    storage, in_geometry = _storage(x)
    offset = in_geometry.offset if storage_offset is None else storage_offset
    out_geometry = _Geometry(shape, strides, int(offset))
    bounds = out_geometry.bounds()
    if bounds is not None and not (0 <= bounds[0] and bounds[1] < storage.size):
        raise ValueError(
            f"as_strided reads storage positions {bounds[0]}..{bounds[1]}, outside the "
            f"{storage.size} elements of the storage of x (shape={shape}, "
            f"strides={strides}, storage_offset={offset})"
        )
    start = storage[offset:] if bounds is not None else storage[:0]
    byte_strides = tuple(s * x.itemsize for s in strides)
    view = xp.lib.stride_tricks.as_strided(start, shape, byte_strides)
    return view, in_geometry, out_geometry


def _stride_array(x, shape: tuple, strides: tuple, storage_offset: int | None):
    """The view of :func:`_strided_view` alone (Chainer v7's name for it)."""
    return _strided_view(x, tuple(shape), tuple(strides), storage_offset)[0]


class AsStrided(FunctionNode):
    """View the storage of the input through a new geometry."""

    def __init__(self, shape, strides, storage_offset=None) -> None:
        self.shape = tuple(int(n) for n in shape)
        self.strides = tuple(int(s) for s in strides)
        if len(self.shape) != len(self.strides):
            raise ValueError(
                f"shape and strides must have the same length, got shape={self.shape} and "
                f"strides={self.strides}"
            )
        if any(n < 0 for n in self.shape):
            raise ValueError(f"shape must not be negative, got {self.shape}")
        self.storage_offset = storage_offset

    def forward(self, inputs: tuple) -> tuple:
        y, self._in_geometry, self._out_geometry = _strided_view(
            inputs[0], self.shape, self.strides, self.storage_offset
        )
        return (y,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        grad = AsStridedGrad(self._out_geometry, self._in_geometry, self._in_geometry)
        return grad.apply(grad_outputs)


class AsStridedGrad(FunctionNode):
    """Scatter-add the input onto storage through ``source``, divide by the coverage count
    of ``counted``, and gather through ``target``.

    With ``source`` the output geometry and ``target = counted`` the input geometry this is the
    gradient of :class:`AsStrided`; swapping ``source`` and ``target`` gives its adjoint, which
    is the gradient of this node.
    """

    def __init__(self, source: _Geometry, target: _Geometry, counted: _Geometry) -> None:
        self.source = source
        self.target = target
        self.counted = counted

    def forward(self, inputs: tuple) -> tuple:
        g = inputs[0]
        if g.dtype.kind != "f":
            raise TypeError(
                f"as_strided: back propagation needs a floating-point gradient, got {g.dtype}"
            )
        xp = backend.get_array_module(g)
        geometries = (self.source, self.target, self.counted)
        bounds = [b for b in (geo.bounds() for geo in geometries) if b is not None]
        if not bounds:
            return (xp.zeros(self.target.shape, dtype=g.dtype),)
        low = min(b[0] for b in bounds)
        length = max(b[1] for b in bounds) - low + 1
        source = (self.source.positions(xp) - low).ravel()
        storage = xp.bincount(source, weights=g.ravel(), minlength=length)
        counted = (self.counted.positions(xp) - low).ravel()
        counts = xp.bincount(counted, minlength=length)
        storage = storage / xp.maximum(counts, 1)
        target = self.target.positions(xp) - low
        return (storage[target].astype(g.dtype, copy=False),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        adjoint = AsStridedGrad(self.target, self.source, self.counted)
        return adjoint.apply(grad_outputs)


def as_strided(x, shape, strides, storage_offset=None) -> Variable:
    """Create a view of the memory of ``x`` with the given shape, strides and offset.

    ``strides`` and ``storage_offset`` count elements, not bytes (unlike
    :func:`numpy.lib.stride_tricks.as_strided`), and the offset is taken from the start of the
    memory ``x`` lives in (the array owning it), so the view of ``x`` itself is ignored.

    The gradient is layout-agnostic: when ``x`` maps several elements onto the same memory,
    the gradient of that memory is shared equally among them.

    Args:
        x: Input variable or array.
        shape: Shape of the output.
        strides: Strides of the output, in elements.
        storage_offset: Position of the output's first element in the memory of ``x``, in
            elements; ``None`` uses the position of ``x``'s first element.

    Returns:
        The strided variable. Reading outside the memory of ``x`` raises ``ValueError``.

    Example:
        >>> x = np.arange(4, dtype=np.float32)
        >>> F.as_strided(x, (3, 2), (1, 1), 0).array
        array([[0., 1.],
               [1., 2.],
               [2., 3.]], dtype=float32)
    """
    return AsStrided(shape, strides, storage_offset).apply((x,))[0]
