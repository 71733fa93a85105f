"""ROI max pooling: the maximum of each integer bin of each box."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer.functions.pooling import _roi
from chainer.variable import Variable


def bin_maxima(x, boxes, images, outsize: tuple, scale: float, inclusive: bool) -> tuple:
    """Maxima of the integer bins of the boxes, and the plan that picks them.

    Returns:
        ``(y, plan)``: the output ``(r, c, out_h, out_w)`` (zero for empty bins) and a
        :class:`~chainer.functions.pooling._roi.PointPlan` reading each maximum's pixel.
    """
    xp = backend.get_array_module(x)
    channels, height, width = x.shape[1:]
    out_shape = (len(boxes), channels, *outsize)
    y = xp.zeros(out_shape, dtype=x.dtype)
    rows_at = xp.zeros(out_shape, dtype=numpy.intp)
    cols_at = xp.zeros(out_shape, dtype=numpy.intp)
    found = xp.zeros(out_shape, dtype=bool)
    for i, ((y0, x0, y1, x1), image) in enumerate(zip(boxes, images)):
        row0, rows = _roi.membership(
            *_roi.pooling_bins(y0, y1, scale, outsize[0], height, inclusive)
        )
        col0, cols = _roi.membership(
            *_roi.pooling_bins(x0, x1, scale, outsize[1], width, inclusive)
        )
        if rows.shape[1] == 0 or cols.shape[1] == 0:
            continue
        patch = x[int(image), :, row0 : row0 + rows.shape[1], col0 : col0 + cols.shape[1]]
        # The maximum of a bin is the maximum over its rows of the row maxima within its
        # columns: two small masked reductions instead of one per bin.
        within = xp.where(xp.asarray(cols), patch[:, :, None, :], -numpy.inf)
        col_arg = within.argmax(axis=3)
        row_max = xp.take_along_axis(within, col_arg[..., None], 3)[..., 0]
        candidates = xp.where(xp.asarray(rows)[:, :, None], row_max[:, None], -numpy.inf)
        row_arg = candidates.argmax(axis=2)
        best = xp.take_along_axis(candidates, row_arg[:, :, None], 2)[:, :, 0]
        nonempty = xp.asarray(rows.any(axis=1)[:, None] & cols.any(axis=1)[None, :])
        y[i] = xp.where(nonempty, best, 0)
        rows_at[i] = row0 + row_arg
        cols_at[i] = col0 + xp.take_along_axis(col_arg[:, None], row_arg[:, :, None], 2)[:, :, 0]
        found[i] = nonempty

    def corners():
        return [(rows_at, cols_at, found.astype(x.dtype))]

    return y, _roi.PointPlan(x.shape, xp.asarray(images), corners)


class ROIMaxPooling2D(_roi.ROIFunction):
    """The maximum of each bin; empty bins (outside the image) are zero."""

    def __init__(self, outsize, spatial_scale) -> None:
        self.outsize = _roi.parse_outsize(outsize)
        self.spatial_scale = _roi.check_spatial_scale(spatial_scale)

    def check_type_forward(self, in_types) -> None:
        _roi.check_roi_types(in_types)

    def forward(self, inputs: tuple) -> tuple:
        x, rois, roi_indices = inputs
        boxes, images = _roi.host_boxes(rois, roi_indices, x.shape[0])
        y, self.plan = bin_maxima(
            x, boxes, images, self.outsize, self.spatial_scale, inclusive=False
        )
        return (y,)


def roi_max_pooling_2d(x, rois, roi_indices, outsize, spatial_scale) -> Variable:
    """Spatial Region of Interest (ROI) max pooling function.

    Box ``i`` of image ``roi_indices[i]`` (corners scaled by ``spatial_scale`` and rounded to
    pixels) is split into ``out_h x out_w`` bins of whole pixels (``floor`` of each bin's start,
    ``ceil`` of its end), and each bin is reduced to its maximum.

    Args:
        x: Images of shape ``(n, c, h, w)`` and floating-point dtype.
        rois: Boxes ``(y_min, x_min, y_max, x_max)`` of shape ``(r, 4)`` and the dtype of ``x``,
            in the coordinates of the original image.
        roi_indices: Image index of each box, an integer array of shape ``(r,)``.
        outsize: ``(out_h, out_w)`` or an int for both.
        spatial_scale: Factor from the original image's coordinates to ``x``'s.

    Returns:
        A variable of shape ``(r, c, out_h, out_w)``; bins outside the image are zero.

    Example:
        >>> x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
        >>> rois = numpy.array([[0, 0, 4, 4]], numpy.float32)
        >>> index = numpy.array([0], numpy.int32)
        >>> F.roi_max_pooling_2d(x, rois, index, 2, 1.0).array
        array([[[[ 5.,  7.],
                 [13., 15.]]]], dtype=float32)
    """
    return ROIMaxPooling2D(outsize, spatial_scale).apply((x, rois, roi_indices))[0]
