"""``rollaxis`` and ``copyto``: NumPy's routines over ChainerX's transpose and assignment."""

from typing import Any

import numpy

from chainerx._core import DimensionError, DtypeError, ndarray, transpose
from chainerx._core import where as _select


def rollaxis(a: ndarray, axis: int, start: int = 0) -> ndarray:
    """Moves ``axis`` to the position before ``start`` (a view, as ``numpy.rollaxis``).

    Raises:
        chainerx.DimensionError: ``axis`` or ``start`` is out of range for ``a.ndim``.
    """
    ndim = a.ndim
    if not -ndim <= axis < ndim:
        raise DimensionError(f"rollaxis: axis {axis} is out of bounds for an array of ndim {ndim}")
    if not -ndim <= start <= ndim:
        raise DimensionError(
            f"rollaxis: start {start} is out of range for an array of ndim {ndim}: "
            f"expected {-ndim} <= start <= {ndim}"
        )
    axis %= ndim
    if start < 0:
        start += ndim
    if axis < start:
        start -= 1
    axes = [i for i in range(ndim) if i != axis]
    axes.insert(start, axis)
    return transpose(a, axes)


def copyto(dst: ndarray, src: Any, casting: str = "same_kind", where: Any = True) -> None:
    """Copies ``src`` into ``dst`` in place, broadcasting, where ``where`` is true.

    Args:
        dst: The array written to.
        src: An array or scalar broadcastable to ``dst.shape``.
        casting: NumPy's casting rule from ``src``'s dtype to ``dst``'s.
        where: A boolean array broadcastable to ``dst.shape``, or a scalar for all elements.

    Raises:
        ValueError: ``casting`` is not one of NumPy's rules.
        chainerx.DtypeError: ``src``'s dtype cannot be cast to ``dst``'s under ``casting``.
    """
    src_dtype = src.dtype if isinstance(src, ndarray) else numpy.asarray(src).dtype
    if not numpy.can_cast(src_dtype, dst.dtype, casting):
        raise DtypeError(
            f"copyto: cannot cast {src_dtype} to {dst.dtype} with casting={casting!r}"
        )
    if isinstance(src, ndarray):
        src = src.astype(dst.dtype, copy=False)
    if isinstance(where, ndarray):
        dst[...] = _select(where, src, dst)
    elif bool(where):
        dst[...] = src
