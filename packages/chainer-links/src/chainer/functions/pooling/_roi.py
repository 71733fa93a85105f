"""Shared parts of the region-of-interest (ROI) pooling functions.

Every ROI function maps images ``x`` of shape ``(n, c, h, w)`` and ``r`` boxes to an output of
shape ``(r, c, out_h, out_w)``: box ``i`` of image ``roi_indices[i]`` is split into
``out_h x out_w`` bins, each reduced to one value. Once the geometry (and, for the max
variants, the position of each maximum) is known, the output is linear in ``x``; that linear
map is a *plan*. ``apply`` and ``adjoint`` of a plan are the forward and the gradient, and the
pair of nodes :class:`PlanApply` / :class:`PlanAdjoint` are each other's gradient, so the ROI
functions are differentiable to any order in ``x``.

Plans loop over the boxes (each with a couple of matrix products over its own bounding
rectangle), never over pixels.
"""

from __future__ import annotations

import math
import numbers

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.utils import type_check

# -- argument checks ----------------------------------------------------------------------------


def parse_outsize(outsize) -> tuple[int, int]:
    """``outsize`` as ``(out_h, out_w)``: an int or a pair of positive ints."""
    pair = (outsize, outsize) if isinstance(outsize, (int, numpy.integer)) else outsize
    if not (
        isinstance(pair, (tuple, list))
        and len(pair) == 2
        and all(isinstance(v, (int, numpy.integer)) and not isinstance(v, bool) for v in pair)
    ):
        raise TypeError(f"outsize must be an int or a pair of ints, got {outsize!r}")
    if min(pair) < 1:
        raise ValueError(f"outsize must be positive, got {outsize!r}")
    return int(pair[0]), int(pair[1])


def check_spatial_scale(spatial_scale) -> float:
    if not isinstance(spatial_scale, numbers.Real) or not spatial_scale > 0:
        raise TypeError(f"spatial_scale must be a positive float number, got {spatial_scale!r}")
    return float(spatial_scale)


def parse_sampling_ratio(sampling_ratio) -> tuple:
    """``(ratio_y, ratio_x)``; ``None`` entries mean "adapt to the box size"."""
    pair = sampling_ratio if isinstance(sampling_ratio, (tuple, list)) else (sampling_ratio,) * 2
    ok = len(pair) == 2 and all(
        s is None or (isinstance(s, (int, numpy.integer)) and not isinstance(s, bool) and s >= 1)
        for s in pair
    )
    if not ok:
        raise TypeError(
            f"sampling_ratio must be None, an integer >= 1 or a pair of them, got "
            f"{sampling_ratio!r}"
        )
    return tuple(pair)


def check_roi_types(in_types, roi_columns: int = 4) -> None:
    """Type check of ``(x, rois[, roi_indices])``."""
    names = ("x", "rois", "roi_indices")[: len(in_types)]
    type_check.argname(in_types, names)
    x_type, roi_type = in_types[:2]
    type_check.expect(
        x_type.dtype.kind == "f",
        x_type.ndim == 4,
        roi_type.dtype.kind == "f",
        roi_type.ndim == 2,
        roi_type.shape[1] == roi_columns,
    )
    if len(in_types) == 3:
        index_type = in_types[2]
        type_check.expect(
            index_type.dtype.kind == "i",
            index_type.ndim == 1,
            roi_type.shape[0] == index_type.shape[0],
        )


def to_host(array) -> numpy.ndarray:
    """A NumPy float64 copy of box coordinates (wherever they live)."""
    return numpy.asarray(backend.CpuDevice().send(array), dtype=numpy.float64)


def checked_images(images, n_images: int) -> numpy.ndarray:
    """Image indexes of the boxes as NumPy integers, each in ``[0, n_images)``."""
    images = numpy.asarray(backend.CpuDevice().send(images)).astype(numpy.intp)
    if images.size and (images.min() < 0 or images.max() >= n_images):
        raise ValueError(
            f"roi indexes must be in [0, {n_images}) (the batch size of x), got values in "
            f"[{images.min()}, {images.max()}]"
        )
    return images


def host_boxes(rois, roi_indices, n_images: int) -> tuple[numpy.ndarray, numpy.ndarray]:
    """The boxes and their checked image indexes as NumPy arrays."""
    return to_host(rois), checked_images(roi_indices, n_images)


# -- bin geometry (NumPy, per box) ----------------------------------------------------------------


def round_half_up(v: float) -> int:
    return math.floor(v + 0.5)


def pooling_bins(start: float, end: float, scale: float, bins: int, size: int, inclusive: bool):
    """Integer bins of the box side ``[start, end]`` (image coordinates, times ``scale``).

    ``inclusive`` counts the end pixel in the box (the convention of ``roi_pooling_2d``).
    Degenerate boxes are one pixel long.
    """
    first = round_half_up(start * scale)
    last = round_half_up(end * scale)
    length = max(last - first + (1 if inclusive else 0), 1)
    return integer_bins(first, length, bins, size)


def integer_bins(start: int, length: int, bins: int, size: int) -> tuple:
    """Start and end (exclusive) pixels of ``bins`` bins splitting ``[start, start + length)``,
    clipped to the image; neighbouring bins may share a pixel, clipped ones may be empty."""
    step = length / bins
    index = numpy.arange(bins)
    starts = numpy.clip(numpy.floor(index * step).astype(numpy.intp) + start, 0, size)
    ends = numpy.clip(numpy.ceil((index + 1) * step).astype(numpy.intp) + start, 0, size)
    return starts, ends


def bilinear_samples(start: float, length: float, bins: int, grid: int, size: int) -> tuple:
    """Bilinear interpolation along one axis at ``grid`` evenly spread points per bin.

    Returns:
        ``(low, high, w_low, w_high)``, each of shape ``(bins * grid,)``: the two pixels of each
        point and their weights (both zero for points outside ``[-1, size]``).
    """
    step = length / bins
    point = numpy.arange(bins * grid)
    coords = start + (point // grid) * step + (point % grid + 0.5) * step / grid
    valid = (coords >= -1.0) & (coords <= size)
    coords = numpy.maximum(coords, 0.0)
    low = numpy.floor(coords).astype(numpy.intp)
    at_end = low >= size - 1
    low = numpy.where(at_end, size - 1, low)
    high = numpy.where(at_end, size - 1, low + 1)
    frac = numpy.where(at_end, 0.0, coords - low)
    return low, high, (1.0 - frac) * valid, frac * valid


def box_samples(box, scale: float, outsize: tuple, sampling_ratio: tuple, dims: tuple) -> tuple:
    """The bilinear sampling points of the bins of ``box = (y_min, x_min, y_max, x_max)``.

    Each bin gets ``grid_y x grid_x`` points (``sampling_ratio``, or ``ceil`` of the bin size
    where it is None); boxes are at least one pixel on each side.

    Returns:
        ``(rows, cols)``: :func:`bilinear_samples` along each axis, plus the grid sizes.
    """
    sides = []
    for start, end, bins, ratio, size in zip(box[:2], box[2:], outsize, sampling_ratio, dims):
        length = max((end - start) * scale, 1.0)
        grid = ratio if ratio is not None else math.ceil(length / bins)
        sides.append((bilinear_samples(start * scale, length, bins, grid, size), grid))
    return sides[0], sides[1]


def dense_weights(low, high, w_low, w_high) -> tuple[int, numpy.ndarray]:
    """The bilinear weights as a matrix over the pixels ``[first, first + width)`` they touch.

    Returns:
        ``(first, matrix)`` with ``matrix`` of shape ``(points, width)``.
    """
    used = (w_low > 0) | (w_high > 0)
    if not used.any():
        return 0, numpy.zeros((len(low), 0))
    first = int(low[used].min())
    width = int(high[used].max()) + 1 - first
    matrix = numpy.zeros((len(low), width))
    # Only points with weight: the pixels of the others may lie outside the span.
    rows = numpy.flatnonzero(used)
    matrix[rows, low[rows] - first] += w_low[rows]
    matrix[rows, high[rows] - first] += w_high[rows]
    return first, matrix


def membership(starts, ends) -> tuple[int, numpy.ndarray]:
    """Bins as a boolean matrix over the pixels ``[first, first + width)`` they cover."""
    first = int(starts.min())
    width = max(int(ends.max()) - first, 0)
    pixel = numpy.arange(first, first + width)
    return first, (pixel >= starts[:, None]) & (pixel < ends[:, None])


# -- plans: the linear maps --------------------------------------------------------------------


class SeparablePlan:
    """``y[i] = A_i @ x[b_i, :, rows_i, cols_i] @ B_i.T``: bins that weigh pixels by a row
    factor times a column factor (averages of bins or of bilinear samples)."""

    def __init__(self, x_shape: tuple, dtype, outsize: tuple, xp) -> None:
        self.x_shape = x_shape
        self.dtype = dtype
        self.outsize = outsize
        self.xp = xp
        self.boxes = []  # (index, image, row slice, col slice, A, B.T)

    def add(self, index: int, image: int, row0: int, a, col0: int, b) -> None:
        """Box ``index`` of image ``image``: ``A`` over rows from ``row0``, ``B`` over
        columns from ``col0``."""
        if a.shape[1] == 0 or b.shape[1] == 0:
            return  # the box touches no pixel: its output stays zero
        rows = slice(row0, row0 + a.shape[1])
        cols = slice(col0, col0 + b.shape[1])
        a = self.xp.asarray(a, dtype=self.dtype)
        bt = self.xp.asarray(b.T, dtype=self.dtype)
        self.boxes.append((index, image, rows, cols, a, bt))

    def apply(self, x, n_boxes: int):
        y = self.xp.zeros((n_boxes, x.shape[1], *self.outsize), dtype=x.dtype)
        for index, image, rows, cols, a, bt in self.boxes:
            y[index] = a @ x[image, :, rows, cols] @ bt
        return y

    def adjoint(self, gy):
        gx = self.xp.zeros(self.x_shape, dtype=gy.dtype)
        for index, image, rows, cols, a, bt in self.boxes:
            gx[image, :, rows, cols] += a.T @ gy[index] @ bt.T
        return gx


class PointPlan:
    """``y[i, c, p, q] = sum_k w_k * x[b_i, c, h_k, w_k]``: each output reads a few pixels
    (the maximum of a bin, or the four neighbours of the maximal bilinear sample).

    Args:
        x_shape: Shape of the images.
        images: Image index of each box, shape ``(r,)``.
        corners: Callable returning the ``(h, w, weight)`` triples, each of shape
            ``(r, c, out_h, out_w)``; they are made on demand to keep them out of memory.
    """

    def __init__(self, x_shape: tuple, images, corners) -> None:
        self.x_shape = x_shape
        self.images = images
        self.corners = corners

    def apply(self, x, n_boxes: int):
        xp = backend.get_array_module(x)
        image = self.images[:, None, None, None]
        channel = xp.arange(x.shape[1])[None, :, None, None]
        y = None
        for h, w, weight in self.corners():
            term = x[image, channel, h, w] * weight
            y = term if y is None else y + term
        return y

    def adjoint(self, gy):
        xp = backend.get_array_module(gy)
        n, c, height, width = self.x_shape
        plane = (self.images[:, None, None, None] * c + xp.arange(c)[None, :, None, None]) * (
            height * width
        )
        gx = xp.zeros(n * c * height * width, dtype=numpy.float64)
        for h, w, weight in self.corners():
            flat = (plane + h * width + w).ravel()
            gx += xp.bincount(flat, weights=(gy * weight).ravel(), minlength=gx.size)
        return gx.astype(gy.dtype).reshape(self.x_shape)


class PlanApply(FunctionNode):
    """``x -> plan(x)``; its gradient is :class:`PlanAdjoint`."""

    def __init__(self, plan, n_boxes: int) -> None:
        self.plan = plan
        self.n_boxes = n_boxes

    def forward(self, inputs: tuple) -> tuple:
        return (self.plan.apply(inputs[0], self.n_boxes),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return PlanAdjoint(self.plan, self.n_boxes).apply(grad_outputs)


class PlanAdjoint(FunctionNode):
    """``gy -> plan^T(gy)``, the gradient of a ROI function; its gradient is
    :class:`PlanApply`."""

    def __init__(self, plan, n_boxes: int) -> None:
        self.plan = plan
        self.n_boxes = n_boxes

    def forward(self, inputs: tuple) -> tuple:
        return (self.plan.adjoint(inputs[0]),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return PlanApply(self.plan, self.n_boxes).apply(grad_outputs)


class ROIFunction(FunctionNode):
    """Base of the ROI functions: ``forward`` builds ``self.plan`` and the output; only
    ``x`` gets a gradient (the boxes and indexes are integer-like data)."""

    plan = None

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        n_boxes = grad_outputs[0].shape[0]
        gx = PlanAdjoint(self.plan, n_boxes).apply(grad_outputs)[0]
        return tuple(gx if i == 0 else None for i in indexes)
