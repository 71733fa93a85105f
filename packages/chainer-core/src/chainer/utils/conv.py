"""Convolution geometry and the im2col / col2im lowering of 2-D convolutions.

``im2col`` turns an image batch ``(n, c, h, w)`` into the column array
``(n, c, kh, kw, out_h, out_w)`` whose ``[:, :, j, i, y, x]`` entry is the pixel that kernel tap
``(j, i)`` sees in output position ``(y, x)``; a convolution then becomes one tensor product.
``col2im`` is its adjoint: it adds every column entry back onto the pixel it came from.

The CPU code here works for any number of spatial axes; :mod:`chainer.utils.conv_nd` exposes it
in N dimensions. The GPU versions run the CUDA kernels of :mod:`chainer.utils.conv_nd_kernel`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy

from chainer.utils import conv_nd_kernel


def get_conv_outsize(
    size: int, k: int, s: int, p: int, cover_all: bool = False, d: int = 1
) -> int:
    """Return the output length of a convolution along one axis.

    Args:
        size: Input length.
        k: Kernel length.
        s: Stride.
        p: Padding on each side.
        cover_all: Add windows so that every input element is covered even when the stride does
            not divide the padded length (the last window then runs past the padded input).
        d: Dilation.
    """
    extent = (k - 1) * d + 1
    if cover_all:
        return (size + 2 * p - extent + s - 1) // s + 1
    return (size + 2 * p - extent) // s + 1


def get_deconv_outsize(
    size: int, k: int, s: int, p: int, cover_all: bool = False, d: int = 1
) -> int:
    """Return the output length of a transposed convolution along one axis.

    It is the input length of the convolution that :func:`get_conv_outsize` maps to ``size``;
    the arguments mean the same as there.
    """
    extent = (k - 1) * d + 1
    if cover_all:
        return s * (size - 1) + extent - s + 1 - 2 * p
    return s * (size - 1) + extent - 2 * p


def _check_out_size(outs: Sequence[int], dims: Sequence[int], ksize: Sequence[int]) -> None:
    """Raise ``ValueError`` unless every output length is positive."""
    if any(o <= 0 for o in outs):
        raise ValueError(
            f"output size {tuple(outs)} must be positive; the input spatial size {tuple(dims)} "
            f"is too small for the (dilated, padded) kernel of size {tuple(ksize)}"
        )


# The leading index of every (N, C, ...) array below: all samples, all channels.
_ALL_SAMPLES_AND_CHANNELS: tuple[Any, ...] = (slice(None), slice(None))


def _tap_slices(
    taps: Sequence[int], stride: Sequence[int], dilate: Sequence[int], outs: Sequence[int]
) -> tuple[slice, ...]:
    """Slices of the padded image that kernel tap ``taps`` reads for all output positions."""
    return tuple(
        slice(t * dl, t * dl + s * (o - 1) + 1, s)
        for t, s, dl, o in zip(taps, stride, dilate, outs)
    )


def _padded_length(dim: int, k: int, s: int, p: int, dl: int, out: int) -> int:
    # The last window may run past the padded input (cover_all, or an explicit output size).
    return max(dim + 2 * p, (k - 1) * dl + (out - 1) * s + 1)


def _im2col_nd_cpu(
    img: numpy.ndarray,
    ksize: Sequence[int],
    stride: Sequence[int],
    pad: Sequence[int],
    dilate: Sequence[int],
    pval: Any,
    outs: Sequence[int],
) -> numpy.ndarray:
    n, c, *dims = img.shape
    widths = [(0, 0), (0, 0)] + [
        (p, _padded_length(dim, k, s, p, dl, o) - dim - p)
        for dim, k, s, p, dl, o in zip(dims, ksize, stride, pad, dilate, outs)
    ]
    padded = numpy.pad(img, widths, mode="constant", constant_values=pval)
    col = numpy.empty((n, c, *ksize, *outs), dtype=img.dtype)
    for taps in itertools.product(*map(range, ksize)):
        col[_ALL_SAMPLES_AND_CHANNELS + taps] = padded[
            _ALL_SAMPLES_AND_CHANNELS + _tap_slices(taps, stride, dilate, outs)
        ]
    return col


def _col2im_nd_cpu(
    col: numpy.ndarray,
    stride: Sequence[int],
    pad: Sequence[int],
    dims: Sequence[int],
    dilate: Sequence[int],
) -> numpy.ndarray:
    ndim = len(dims)
    n, c = col.shape[:2]
    ksize = col.shape[2 : 2 + ndim]
    outs = col.shape[2 + ndim :]
    lengths = [
        _padded_length(dim, k, s, p, dl, o)
        for dim, k, s, p, dl, o in zip(dims, ksize, stride, pad, dilate, outs)
    ]
    padded = numpy.zeros((n, c, *lengths), dtype=col.dtype)
    for taps in itertools.product(*map(range, ksize)):
        padded[_ALL_SAMPLES_AND_CHANNELS + _tap_slices(taps, stride, dilate, outs)] += col[
            _ALL_SAMPLES_AND_CHANNELS + taps
        ]
    return padded[_ALL_SAMPLES_AND_CHANNELS + tuple(slice(p, p + d) for p, d in zip(pad, dims))]


def _check_ndim(array: Any, ndim: int, name: str) -> None:
    if array.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-D array, got shape {array.shape}")


def _out_hw(img, kh, kw, sy, sx, ph, pw, cover_all, dy, dx, out_h, out_w) -> tuple[int, int]:
    _check_ndim(img, 4, "img")
    h, w = img.shape[2:]
    if out_h is None:
        out_h = get_conv_outsize(h, kh, sy, ph, cover_all, dy)
    if out_w is None:
        out_w = get_conv_outsize(w, kw, sx, pw, cover_all, dx)
    _check_out_size((out_h, out_w), (h, w), (kh, kw))
    return out_h, out_w


def im2col_cpu(
    img: numpy.ndarray,
    kh: int,
    kw: int,
    sy: int,
    sx: int,
    ph: int,
    pw: int,
    pval: Any = 0,
    cover_all: bool = False,
    dy: int = 1,
    dx: int = 1,
    out_h: int | None = None,
    out_w: int | None = None,
) -> numpy.ndarray:
    """Lower a NumPy image batch ``(n, c, h, w)`` to columns ``(n, c, kh, kw, out_h, out_w)``.

    Args:
        img: The images.
        kh, kw: Kernel height and width.
        sy, sx: Strides.
        ph, pw: Padding on each side.
        pval: The value of padded pixels.
        cover_all: See :func:`get_conv_outsize`.
        dy, dx: Dilations.
        out_h, out_w: Output size to use instead of the one computed from the rest.
    """
    outs = _out_hw(img, kh, kw, sy, sx, ph, pw, cover_all, dy, dx, out_h, out_w)
    return _im2col_nd_cpu(img, (kh, kw), (sy, sx), (ph, pw), (dy, dx), pval, outs)


def im2col_gpu(
    img: Any,
    kh: int,
    kw: int,
    sy: int,
    sx: int,
    ph: int,
    pw: int,
    cover_all: bool = False,
    dy: int = 1,
    dx: int = 1,
    out_h: int | None = None,
    out_w: int | None = None,
) -> Any:
    """The CuPy version of :func:`im2col_cpu` (padded pixels are zero)."""
    outs = _out_hw(img, kh, kw, sy, sx, ph, pw, cover_all, dy, dx, out_h, out_w)
    return conv_nd_kernel.im2col(img, (kh, kw), (sy, sx), (ph, pw), (dy, dx), outs)


def col2im_cpu(
    col: numpy.ndarray,
    sy: int,
    sx: int,
    ph: int,
    pw: int,
    h: int,
    w: int,
    dy: int = 1,
    dx: int = 1,
) -> numpy.ndarray:
    """Add NumPy columns ``(n, c, kh, kw, out_h, out_w)`` back onto images ``(n, c, h, w)``.

    Every column entry is added to the pixel it was taken from by :func:`im2col_cpu` with the
    same strides, padding and dilations; entries that came from padding are dropped.
    """
    _check_ndim(col, 6, "col")
    return _col2im_nd_cpu(col, (sy, sx), (ph, pw), (h, w), (dy, dx))


def col2im_gpu(
    col: Any,
    sy: int,
    sx: int,
    ph: int,
    pw: int,
    h: int,
    w: int,
    dy: int = 1,
    dx: int = 1,
) -> Any:
    """The CuPy version of :func:`col2im_cpu`."""
    _check_ndim(col, 6, "col")
    return conv_nd_kernel.col2im(col, (sy, sx), (ph, pw), (h, w), (dy, dx))


def im2col(
    img: Any,
    kh: int,
    kw: int,
    sy: int,
    sx: int,
    ph: int,
    pw: int,
    pval: Any = 0,
    cover_all: bool = False,
    dy: int = 1,
    dx: int = 1,
    out_h: int | None = None,
    out_w: int | None = None,
) -> Any:
    """:func:`im2col_cpu` for NumPy images, :func:`im2col_gpu` for CuPy ones."""
    if isinstance(img, numpy.ndarray):
        return im2col_cpu(img, kh, kw, sy, sx, ph, pw, pval, cover_all, dy, dx, out_h, out_w)
    if pval != 0:
        raise ValueError(f"im2col on the GPU pads with zeros only, got pval={pval!r}")
    return im2col_gpu(img, kh, kw, sy, sx, ph, pw, cover_all, dy, dx, out_h, out_w)


def col2im(
    col: Any, sy: int, sx: int, ph: int, pw: int, h: int, w: int, dy: int = 1, dx: int = 1
) -> Any:
    """:func:`col2im_cpu` for NumPy columns, :func:`col2im_gpu` for CuPy ones."""
    convert = col2im_cpu if isinstance(col, numpy.ndarray) else col2im_gpu
    return convert(col, sy, sx, ph, pw, h, w, dy, dx)
