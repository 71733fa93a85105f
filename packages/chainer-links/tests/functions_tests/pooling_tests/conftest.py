"""Shared pieces of the pooling tests: dtypes, tolerances, inputs and a reference pooling."""

import itertools

import numpy

FLOAT_DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def loosen_for_float16(case) -> None:
    """float16 needs looser tolerances and a finite-difference step above its resolution."""
    if case.dtype != numpy.float16:
        return
    case.check_forward_options = {"atol": 1e-3, "rtol": 1e-3}
    backward = {"atol": 5e-3, "rtol": 5e-2, "eps": 2.0**-6}
    case.check_backward_options = backward
    case.check_double_backward_options = backward


def distinct_values(shape, dtype):
    """Distinct values at least 1 apart (exact in float16), so no window has a tie that a
    finite difference could cross."""
    size = int(numpy.prod(shape))
    return (numpy.random.permutation(size) - size / 2).reshape(shape).astype(dtype)


def out_size(d, k, s, p, cover_all):
    return (d + 2 * p - k + (s - 1 if cover_all else 0)) // s + 1


def window_positions(dims, ksize, stride, pad, cover_all):
    """For each output position, the input slices of its window clipped to the image."""
    outs = [out_size(*args, cover_all) for args in zip(dims, ksize, stride, pad)]
    for o in itertools.product(*map(range, outs)):
        starts = [oi * s - p for oi, s, p in zip(o, stride, pad)]
        window = tuple(slice(max(a, 0), min(a + k, d)) for a, k, d in zip(starts, ksize, dims))
        yield o, starts, window


def reference_pooling(x, ksize, stride, pad, cover_all, reduce):
    """Pool ``x`` with ``reduce(window_values (n, c, m), full_window_size)`` in plain loops."""
    dims = x.shape[2:]
    outs = [out_size(*args, cover_all) for args in zip(dims, ksize, stride, pad)]
    y = numpy.empty(x.shape[:2] + tuple(outs), numpy.float64)
    for o, _, window in window_positions(dims, ksize, stride, pad, cover_all):
        values = x[(slice(None), slice(None), *window)].reshape(x.shape[0], x.shape[1], -1)
        y[(slice(None), slice(None), *o)] = reduce(values.astype(numpy.float64), numpy.prod(ksize))
    return y


# -- ROI references: direct loops over boxes, bins and samples ----------------------------------


def roi_inputs(dtype):
    """Images ``(2, 2, 6, 5)`` and boxes inside, across the border, degenerate and outside.

    Pixel values are distinct: 1/16 apart in float16 (wider than its finite-difference
    step), and small elsewhere so that float32 outputs resolve finite differences.
    """
    x = distinct_values((2, 2, 6, 5), dtype)
    x /= 16 if dtype == numpy.float16 else x.size
    rois = numpy.array(
        [
            [0.3, 1.2, 4.6, 3.1],
            [-2.2, -1.1, 3.3, 7.9],
            [2.0, 2.0, 2.0, 2.0],
            [4.1, 3.2, 9.8, 10.3],
        ],
        dtype,
    )
    roi_indices = numpy.array([0, 1, 1, 0], numpy.int32)
    return x, rois, roi_indices


def dodge_kinks_unless_float16(case) -> None:
    """Regenerate inputs near kinks of max-type functions; float16 outputs are too coarse for
    the kink detection, so there the distinct pixel values must suffice."""
    case.dodge_nondifferentiable = case.dtype != numpy.float16


def _round(v):
    return int(numpy.floor(v + 0.5))


def reference_roi_pooling(x, boxes, images, outsize, scale, reduce, inclusive=False):
    """Integer bins: ``reduce(values (c, m))`` of each non-empty bin; empty bins are zero."""
    height, width = x.shape[2:]
    out_h, out_w = outsize
    y = numpy.zeros((len(boxes), x.shape[1], out_h, out_w))
    for i, (box, image) in enumerate(zip(boxes.astype(numpy.float64), images)):
        y0, x0, y1, x1 = (_round(v * scale) for v in box)
        box_h = max(y1 - y0 + int(inclusive), 1)
        box_w = max(x1 - x0 + int(inclusive), 1)
        for p in range(out_h):
            h_lo = min(max(int(numpy.floor(p * box_h / out_h)) + y0, 0), height)
            h_hi = min(max(int(numpy.ceil((p + 1) * box_h / out_h)) + y0, 0), height)
            for q in range(out_w):
                w_lo = min(max(int(numpy.floor(q * box_w / out_w)) + x0, 0), width)
                w_hi = min(max(int(numpy.ceil((q + 1) * box_w / out_w)) + x0, 0), width)
                if h_hi > h_lo and w_hi > w_lo:
                    values = x[image, :, h_lo:h_hi, w_lo:w_hi].reshape(x.shape[1], -1)
                    y[i, :, p, q] = reduce(values.astype(numpy.float64))
    return y


def _bilinear(image, y, x):
    """The interpolated channels at ``(y, x)``, or None more than a pixel outside."""
    height, width = image.shape[1:]
    if y < -1 or y > height or x < -1 or x > width:
        return None
    y, x = max(y, 0.0), max(x, 0.0)
    y_lo, x_lo = int(y), int(x)
    if y_lo >= height - 1:
        y_lo = y_hi = height - 1
        y = float(y_lo)
    else:
        y_hi = y_lo + 1
    if x_lo >= width - 1:
        x_lo = x_hi = width - 1
        x = float(x_lo)
    else:
        x_hi = x_lo + 1
    ly, lx = y - y_lo, x - x_lo
    return (
        (1 - ly) * (1 - lx) * image[:, y_lo, x_lo]
        + (1 - ly) * lx * image[:, y_lo, x_hi]
        + ly * (1 - lx) * image[:, y_hi, x_lo]
        + ly * lx * image[:, y_hi, x_hi]
    )


def reference_roi_align(x, boxes, images, outsize, scale, sampling_ratio, reduce):
    """``reduce(list of sample values or None, n_samples)`` per bin (RoIAlign sampling)."""
    out_h, out_w = outsize
    ratio = sampling_ratio if isinstance(sampling_ratio, tuple) else (sampling_ratio,) * 2
    y = numpy.zeros((len(boxes), x.shape[1], out_h, out_w))
    for i, (box, image) in enumerate(zip(boxes.astype(numpy.float64), images)):
        img = x[image].astype(numpy.float64)
        y0, x0, y1, x1 = box * scale
        box_h, box_w = max(y1 - y0, 1.0), max(x1 - x0, 1.0)
        bin_h, bin_w = box_h / out_h, box_w / out_w
        grid_h = ratio[0] or int(numpy.ceil(box_h / out_h))
        grid_w = ratio[1] or int(numpy.ceil(box_w / out_w))
        for p in range(out_h):
            for q in range(out_w):
                samples = [
                    _bilinear(
                        img,
                        y0 + p * bin_h + (iy + 0.5) * bin_h / grid_h,
                        x0 + q * bin_w + (ix + 0.5) * bin_w / grid_w,
                    )
                    for iy in range(grid_h)
                    for ix in range(grid_w)
                ]
                y[i, :, p, q] = reduce(samples, grid_h * grid_w, x.shape[1])
    return y
