"""NumPy references of the convolutions the links wrap (float64 inside)."""

import itertools

import numpy
from numpy.lib.stride_tricks import sliding_window_view


def _tuple(value, n):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


def conv(x, W, b=None, stride=1, pad=0, dilate=1, groups=1):
    """N-d grouped convolution of ``x`` ``(n, c, *dims)`` with ``W`` ``(o, c/g, *k)``."""
    nd = x.ndim - 2
    stride, pad, dilate = (_tuple(v, nd) for v in (stride, pad, dilate))
    ksize = W.shape[2:]
    padded = numpy.pad(x.astype(numpy.float64), [(0, 0), (0, 0)] + [(p, p) for p in pad])
    extents = [(k - 1) * d + 1 for k, d in zip(ksize, dilate)]
    windows = sliding_window_view(padded, extents, axis=tuple(range(2, 2 + nd)))
    windows = windows[(Ellipsis, *(slice(None, None, d) for d in dilate))]
    windows = windows[(slice(None), slice(None), *(slice(None, None, s) for s in stride))]
    n, c = x.shape[:2]
    outs = windows.shape[2 : 2 + nd]
    windows = windows.reshape(n, groups, c // groups, *outs, *ksize)
    weights = W.astype(numpy.float64).reshape(groups, W.shape[0] // groups, c // groups, *ksize)
    o_letters, k_letters = "uvw"[:nd], "UVW"[:nd]
    y = numpy.einsum(
        f"zgc{o_letters}{k_letters},gqc{k_letters}->zgq{o_letters}", windows, weights
    ).reshape(n, W.shape[0], *outs)
    if b is not None:
        y += b.reshape((1, -1) + (1,) * nd)
    return y


def deconv(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    """N-d transposed convolution: every input element scatters ``W`` into the output."""
    nd = x.ndim - 2
    stride, pad, dilate = (_tuple(v, nd) for v in (stride, pad, dilate))
    n, c_in, *dims = x.shape
    c_group, ksize = W.shape[1], W.shape[2:]
    full = [(d - 1) * s + (k - 1) * dl + 1 for d, s, k, dl in zip(dims, stride, ksize, dilate)]
    y = numpy.zeros((n, c_group * groups, *full))
    xg = x.astype(numpy.float64).reshape(n, groups, c_in // groups, *dims)
    wg = W.astype(numpy.float64).reshape(groups, c_in // groups, c_group, *ksize)
    letters = "uvw"[:nd]
    for taps in itertools.product(*map(range, ksize)):
        part = numpy.einsum(f"zgc{letters},gcq->zgq{letters}", xg, wg[(Ellipsis, *taps)])
        target = tuple(
            slice(t * dl, t * dl + (d - 1) * s + 1, s)
            for t, dl, d, s in zip(taps, dilate, dims, stride)
        )
        y[(slice(None), slice(None), *target)] += part.reshape(n, -1, *dims)
    if outsize is None:
        outsize = [f - 2 * p for f, p in zip(full, pad)]
    y = y[(slice(None), slice(None), *(slice(p, p + o) for p, o in zip(pad, outsize)))]
    if b is not None:
        y = y + b.reshape((1, -1) + (1,) * nd)
    return y
