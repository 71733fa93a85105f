"""Shared pieces of the connection tests: dtypes, float16 tolerances and direct-loop
references of convolution and deconvolution."""

import itertools

import numpy

FLOAT_DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def loosen_for_float16(case, forward=None, backward=None) -> None:
    """Loosen a FunctionTestCase's tolerances when its ``dtype`` is float16."""
    if case.dtype != numpy.float16:
        return
    case.check_forward_options = forward or {"atol": 5e-3, "rtol": 5e-3}
    case.check_backward_options = backward or {"atol": 5e-2, "rtol": 5e-2}
    case.check_double_backward_options = backward or {"atol": 5e-2, "rtol": 5e-2}


def uniform(shape, dtype, low=-1.0, high=1.0):
    return numpy.random.uniform(low, high, shape).astype(dtype)


def conv_reference(x, W, b=None, stride=1, pad=0, dilate=1, groups=1, cover_all=False):
    """Convolution by a loop over output positions (float64 inside, ``x.dtype`` out)."""
    n, c_in, *dims = x.shape
    c_out, c_group, *ksize = W.shape
    nd = len(dims)
    stride, pad, dilate = (v if isinstance(v, tuple) else (v,) * nd for v in (stride, pad, dilate))
    extents = [(k - 1) * d + 1 for k, d in zip(ksize, dilate)]
    outs = [
        (size + 2 * p - e + (s - 1 if cover_all else 0)) // s + 1
        for size, p, e, s in zip(dims, pad, extents, stride)
    ]
    # Zeros on the left (the padding) and on the right (padding and cover_all overhang).
    right = [
        max(p, (o - 1) * s + e - size - p)
        for o, s, e, size, p in zip(outs, stride, extents, dims, pad)
    ]
    xp = numpy.pad(x.astype(numpy.float64), [(0, 0), (0, 0)] + list(zip(pad, right)))
    y = numpy.zeros((n, c_out, *outs))
    per_group = c_out // groups
    for pos in itertools.product(*map(range, outs)):
        window = xp[
            (slice(None), slice(None))
            + tuple(slice(o * s, o * s + e, d) for o, s, e, d in zip(pos, stride, extents, dilate))
        ]
        for g in range(groups):
            xs = window[:, g * c_group : (g + 1) * c_group].reshape(n, -1)
            ws = (
                W[g * per_group : (g + 1) * per_group].astype(numpy.float64).reshape(per_group, -1)
            )
            y[(slice(None), slice(g * per_group, (g + 1) * per_group)) + pos] = xs @ ws.T
    if b is not None:
        y += b.reshape((1, -1) + (1,) * nd)
    return y.astype(x.dtype)


def deconv_reference(x, W, b=None, stride=1, pad=0, dilate=1, groups=1, outsize=None):
    """Deconvolution by scattering every input element (float64 inside, ``x.dtype`` out)."""
    n, c_in, *dims = x.shape
    _, c_group, *ksize = W.shape
    nd = len(dims)
    stride, pad, dilate = (v if isinstance(v, tuple) else (v,) * nd for v in (stride, pad, dilate))
    if outsize is None:
        outsize = [
            s * (d - 1) + (k - 1) * dl + 1 - 2 * p
            for s, d, k, dl, p in zip(stride, dims, ksize, dilate, pad)
        ]
    y = numpy.zeros((n, c_group * groups, *outsize))
    in_group = c_in // groups
    for pos in itertools.product(*map(range, dims)):
        for taps in itertools.product(*map(range, ksize)):
            target = [i * s + t * d - p for i, s, t, d, p in zip(pos, stride, taps, dilate, pad)]
            if not all(0 <= o < size for o, size in zip(target, outsize)):
                continue
            for g in range(groups):
                xs = x[(slice(None), slice(g * in_group, (g + 1) * in_group)) + pos]
                ws = W[(slice(g * in_group, (g + 1) * in_group), slice(None)) + taps]
                y[(slice(None), slice(g * c_group, (g + 1) * c_group)) + tuple(target)] += (
                    xs.astype(numpy.float64) @ ws.astype(numpy.float64)
                )
    if b is not None:
        y += b.reshape((1, -1) + (1,) * nd)
    return y.astype(x.dtype)
