"""Direct-loop NumPy references for im2col / col2im, shared by the conv tests."""

import itertools

import numpy


def conv_outsize(size, k, s, p, cover_all, d):
    """Count windows by stepping them along the padded input."""
    extent = (k - 1) * d + 1
    length = size + 2 * p
    count = 0
    while count * s + extent <= length:
        count += 1
    if cover_all:
        # Add windows (running past the end) until the last one reaches the end of the input.
        while (count - 1) * s + extent < length:
            count += 1
    return count


def im2col(img, ksize, stride, pad, dilate, outs, pval=0):
    n, c, *dims = img.shape
    col = numpy.full((n, c, *ksize, *outs), pval, dtype=img.dtype)
    for taps in itertools.product(*map(range, ksize)):
        for out in itertools.product(*map(range, outs)):
            pos = [t * dl + o * s - p for t, o, s, p, dl in zip(taps, out, stride, pad, dilate)]
            if all(0 <= q < dim for q, dim in zip(pos, dims)):
                col[(slice(None), slice(None), *taps, *out)] = img[
                    (slice(None), slice(None), *pos)
                ]
    return col


def col2im(col, stride, pad, dims, dilate):
    ndim = len(dims)
    n, c = col.shape[:2]
    ksize, outs = col.shape[2 : 2 + ndim], col.shape[2 + ndim :]
    img = numpy.zeros((n, c, *dims), dtype=col.dtype)
    for taps in itertools.product(*map(range, ksize)):
        for out in itertools.product(*map(range, outs)):
            pos = [t * dl + o * s - p for t, o, s, p, dl in zip(taps, out, stride, pad, dilate)]
            if all(0 <= q < dim for q, dim in zip(pos, dims)):
                img[(slice(None), slice(None), *pos)] += col[
                    (slice(None), slice(None), *taps, *out)
                ]
    return img
