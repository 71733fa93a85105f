"""NumPy im2col / col2im over arrays with a leading and a trailing non-spatial axis.

Images are ``(a, *dims, b)`` and columns ``(a, *ksize, *outs, b)``. With ``a = n * c`` and
``b = 1`` this is the usual ``(n, c, *ksize, *outs)`` layout; with ``a = c`` and ``b = n`` the
batch is the last axis, so that every copy moves runs of ``out_w * n`` numbers. im2col is one
copy from a strided view of the padded image that holds every window; col2im adds one tap of
the kernel at a time, ``prod(ksize)`` strided additions.

With ``scratch=True`` the padded image and the columns are :mod:`._scratch` buffers (slots
``"img"`` and ``"col"``): the caller must be done with the result before the next call.
"""

from __future__ import annotations

import functools
import itertools

import numpy

from chainer.functions import _scratch

_ALL = slice(None)


def padded_lengths(dims, ksize, stride, pad, dilate, outs) -> list[int]:
    """Length of each padded axis; the last window may run past the padding (cover_all)."""
    return [
        max(d + 2 * p, (k - 1) * dl + (o - 1) * s + 1)
        for d, k, s, p, dl, o in zip(dims, ksize, stride, pad, dilate, outs)
    ]


def _is_identity(ksize, stride, pad, dims, outs) -> bool:
    """A 1x1 kernel with unit stride and no padding: the columns are the image itself."""
    return (
        all(k == 1 for k in ksize)
        and all(s == 1 for s in stride)
        and not any(pad)
        and tuple(dims) == tuple(outs)
    )


@functools.lru_cache(maxsize=256)
def _taps_and_windows(ksize: tuple, stride: tuple, dilate: tuple, outs: tuple) -> tuple:
    """One ``(tap, window)`` index pair per kernel tap: ``col[tap]`` is the tap's slot in the
    columns and ``padded[window]`` the strided slices of the padded image it reads (cached:
    a convnet asks for the same few geometries at every step)."""
    per_axis = [
        [slice(t * dl, t * dl + (o - 1) * s + 1, s) for t in range(k)]
        for k, s, dl, o in zip(ksize, stride, dilate, outs)
    ]
    taps = itertools.product(*map(range, ksize))
    windows = itertools.product(*per_axis)
    return tuple(((_ALL, *t), (_ALL, *w)) for t, w in zip(taps, windows))


def _inside(pad, dims) -> tuple:
    return (_ALL, *(slice(p, p + d) for p, d in zip(pad, dims)))


def _contiguous(img, scratch: bool) -> numpy.ndarray:
    if not scratch or img.flags.c_contiguous:
        return numpy.ascontiguousarray(img)
    copy = _scratch.empty("img", img.shape, img.dtype)
    numpy.copyto(copy, img)
    return copy


def im2col(img, ksize, stride, pad, dilate, outs, scratch: bool = False) -> numpy.ndarray:
    """``(a, *dims, b) -> (a, *ksize, *outs, b)`` columns, zero outside the image.

    ``img`` may be any view (a transposed one, say): it is copied once, into the padded
    buffer, before the taps are read.
    """
    a, *dims, b = img.shape
    if _is_identity(ksize, stride, pad, dims, outs):
        return _contiguous(img, scratch).reshape(a, *ksize, *outs, b)
    lengths = padded_lengths(dims, ksize, stride, pad, dilate, outs)
    if lengths == dims:
        padded = _contiguous(img, scratch)
    else:
        shape = (a, *lengths, b)
        padded = (
            _scratch.zeros("img", shape, img.dtype) if scratch else numpy.zeros(shape, img.dtype)
        )
        padded[_inside(pad, dims)] = img
    shape = (a, *ksize, *outs, b)
    col = _scratch.empty("col", shape, img.dtype) if scratch else numpy.empty(shape, img.dtype)
    numpy.copyto(col, _windows_view(padded, ksize, stride, dilate, outs))
    return col


def _windows_view(padded, ksize, stride, dilate, outs) -> numpy.ndarray:
    """The read-only ``(a, *ksize, *outs, b)`` view of C-contiguous ``padded`` whose element
    ``[i, *tap, *out, j]`` is ``padded[i, *(out * stride + tap * dilate), j]``."""
    step_a, *steps, step_b = padded.strides
    strides = (
        step_a,
        *(st * dl for st, dl in zip(steps, dilate)),
        *(st * s for st, s in zip(steps, stride)),
        step_b,
    )
    shape = (padded.shape[0], *ksize, *outs, padded.shape[-1])
    view = numpy.ndarray(shape, padded.dtype, buffer=padded, strides=strides)
    view.flags.writeable = False
    return view


def col2im(col, stride, pad, dilate, dims, scratch: bool = False) -> numpy.ndarray:
    """Add ``(a, *ksize, *outs, b)`` columns back onto ``(a, *dims, b)``: the adjoint.

    The result may be a view into a larger (padded) buffer, or ``col`` itself.
    """
    ndim = len(dims)
    a, b = col.shape[0], col.shape[-1]
    ksize = col.shape[1 : 1 + ndim]
    outs = col.shape[1 + ndim : 1 + 2 * ndim]
    if _is_identity(ksize, stride, pad, dims, outs):
        return col.reshape(a, *dims, b)
    lengths = padded_lengths(dims, ksize, stride, pad, dilate, outs)
    shape = (a, *lengths, b)
    padded = _scratch.zeros("img", shape, col.dtype) if scratch else numpy.zeros(shape, col.dtype)
    for tap, window in _taps_and_windows(ksize, tuple(stride), tuple(dilate), outs):
        padded[window] += col[tap]
    return padded[_inside(pad, dims)]
