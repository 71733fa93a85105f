"""im2col / col2im for convolutions with any number of spatial axes.

The layouts generalise :mod:`chainer.utils.conv`: images are ``(n, c, *dims)`` and columns are
``(n, c, *ksize, *outs)``. ``ksize``, ``stride``, ``pad`` and ``dilate`` take one int per spatial
axis, or a single int for all of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy

from chainer.utils import conv_nd_kernel
from chainer.utils.conv import _check_out_size, _col2im_nd_cpu, _im2col_nd_cpu, get_conv_outsize

IntOrInts = int | Sequence[int]


class _AxisCountError(ValueError, AssertionError):
    """A per-axis argument has the wrong number of values (v7 asserted: AssertionError)."""


def as_tuple(x: IntOrInts, n: int) -> tuple[int, ...]:
    """Return ``x`` as an ``n``-tuple: a sequence is checked for length, a scalar is repeated.

    Raises:
        _AxisCountError: A sequence does not have ``n`` values (a ``ValueError`` and, as in v7,
            an ``AssertionError``).
    """
    if isinstance(x, (Sequence, numpy.ndarray)):
        if len(x) != n:
            raise _AxisCountError(f"expected {n} values (one per spatial axis), got {tuple(x)}")
        return tuple(x)
    return (x,) * n


def _geometry(img: Any, ksize, stride, pad, cover_all: bool, dilate) -> tuple[tuple, ...]:
    ndim = img.ndim - 2
    if ndim < 1:
        raise ValueError(f"img must be (n, c, *spatial) with a spatial axis, got {img.shape}")
    ksize, stride, pad, dilate = (as_tuple(v, ndim) for v in (ksize, stride, pad, dilate))
    dims = img.shape[2:]
    outs = tuple(map(get_conv_outsize, dims, ksize, stride, pad, (cover_all,) * ndim, dilate))
    _check_out_size(outs, dims, ksize)
    return ksize, stride, pad, dilate, outs


def im2col_nd_cpu(
    img: numpy.ndarray,
    ksize: IntOrInts,
    stride: IntOrInts,
    pad: IntOrInts,
    cover_all: bool = False,
    dilate: IntOrInts = 1,
) -> numpy.ndarray:
    """Lower NumPy images ``(n, c, *dims)`` to columns ``(n, c, *ksize, *outs)`` (zero padding)."""
    ksize, stride, pad, dilate, outs = _geometry(img, ksize, stride, pad, cover_all, dilate)
    return _im2col_nd_cpu(img, ksize, stride, pad, dilate, 0, outs)


def im2col_nd_gpu(
    img: Any,
    ksize: IntOrInts,
    stride: IntOrInts,
    pad: IntOrInts,
    cover_all: bool = False,
    dilate: IntOrInts = 1,
) -> Any:
    """The CuPy version of :func:`im2col_nd_cpu`."""
    ksize, stride, pad, dilate, outs = _geometry(img, ksize, stride, pad, cover_all, dilate)
    return conv_nd_kernel.im2col(img, ksize, stride, pad, dilate, outs)


def _col_geometry(col: Any, stride, pad, dims, dilate) -> tuple[tuple, ...]:
    ndim = len(dims)
    if col.ndim != 2 + 2 * ndim:
        raise _AxisCountError(
            f"col must be (n, c, *ksize, *outs) for {ndim} spatial axes, got shape {col.shape}"
        )
    return tuple(dims), as_tuple(stride, ndim), as_tuple(pad, ndim), as_tuple(dilate, ndim)


def col2im_nd_cpu(
    col: numpy.ndarray,
    stride: IntOrInts,
    pad: IntOrInts,
    dims: Sequence[int],
    dilate: IntOrInts = 1,
) -> numpy.ndarray:
    """Add NumPy columns ``(n, c, *ksize, *outs)`` back onto images ``(n, c, *dims)``."""
    dims, stride, pad, dilate = _col_geometry(col, stride, pad, dims, dilate)
    return _col2im_nd_cpu(col, stride, pad, dims, dilate)


def col2im_nd_gpu(
    col: Any,
    stride: IntOrInts,
    pad: IntOrInts,
    dims: Sequence[int],
    dilate: IntOrInts = 1,
) -> Any:
    """The CuPy version of :func:`col2im_nd_cpu`."""
    dims, stride, pad, dilate = _col_geometry(col, stride, pad, dims, dilate)
    return conv_nd_kernel.col2im(col, stride, pad, dims, dilate)


def im2col_nd(
    img: Any,
    ksize: IntOrInts,
    stride: IntOrInts,
    pad: IntOrInts,
    cover_all: bool = False,
    dilate: IntOrInts = 1,
) -> Any:
    """:func:`im2col_nd_cpu` for NumPy images, :func:`im2col_nd_gpu` for CuPy ones."""
    lower = im2col_nd_cpu if isinstance(img, numpy.ndarray) else im2col_nd_gpu
    return lower(img, ksize, stride, pad, cover_all, dilate)


def col2im_nd(
    col: Any,
    stride: IntOrInts,
    pad: IntOrInts,
    dims: Sequence[int],
    dilate: IntOrInts = 1,
) -> Any:
    """:func:`col2im_nd_cpu` for NumPy columns, :func:`col2im_nd_gpu` for CuPy ones."""
    convert = col2im_nd_cpu if isinstance(col, numpy.ndarray) else col2im_nd_gpu
    return convert(col, stride, pad, dims, dilate)
