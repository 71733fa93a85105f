"""ROI average pooling: the mean of each integer bin of each box."""

from __future__ import annotations

from chainer import backend
from chainer.functions.pooling import _roi
from chainer.variable import Variable


def _averaging(starts, ends) -> tuple:
    """Row (or column) factor averaging each bin: ``1 / bin length`` on its pixels."""
    first, member = _roi.membership(starts, ends)
    counts = member.sum(axis=1, keepdims=True)
    return first, member / (counts + (counts == 0))


class ROIAveragePooling2D(_roi.ROIFunction):
    """The mean of each bin; empty bins (outside the image) are zero."""

    def __init__(self, outsize, spatial_scale) -> None:
        self.outsize = _roi.parse_outsize(outsize)
        self.spatial_scale = _roi.check_spatial_scale(spatial_scale)

    def check_type_forward(self, in_types) -> None:
        _roi.check_roi_types(in_types)

    def forward(self, inputs: tuple) -> tuple:
        x, rois, roi_indices = inputs
        boxes, images = _roi.host_boxes(rois, roi_indices, x.shape[0])
        xp = backend.get_array_module(x)
        plan = _roi.SeparablePlan(x.shape, x.dtype, self.outsize, xp)
        height, width = x.shape[2:]
        for i, ((y0, x0, y1, x1), image) in enumerate(zip(boxes, images)):
            scale = self.spatial_scale
            rows = _roi.pooling_bins(y0, y1, scale, self.outsize[0], height, inclusive=False)
            cols = _roi.pooling_bins(x0, x1, scale, self.outsize[1], width, inclusive=False)
            row0, a = _averaging(*rows)
            col0, b = _averaging(*cols)
            plan.add(i, int(image), row0, a, col0, b)
        self.plan = plan
        return (plan.apply(x, len(boxes)),)


def roi_average_pooling_2d(x, rois, roi_indices, outsize, spatial_scale) -> Variable:
    """Spatial Region of Interest (ROI) average pooling function.

    Box ``i`` of image ``roi_indices[i]`` (corners scaled by ``spatial_scale`` and rounded to
    pixels) is split into ``out_h x out_w`` bins of whole pixels (``floor`` of each bin's start,
    ``ceil`` of its end, so neighbouring bins may share a pixel), and each bin is averaged.

    Args:
        x: Images of shape ``(n, c, h, w)`` and floating-point dtype.
        rois: Boxes ``(y_min, x_min, y_max, x_max)`` of shape ``(r, 4)`` and the dtype of ``x``,
            in the coordinates of the original image.
        roi_indices: Image index of each box, an integer array of shape ``(r,)``.
        outsize: ``(out_h, out_w)`` or an int for both.
        spatial_scale: Factor from the original image's coordinates to ``x``'s (e.g.
            ``1 / 16``).

    Returns:
        A variable of shape ``(r, c, out_h, out_w)``; bins outside the image are zero.

    Example:
        >>> x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
        >>> rois = numpy.array([[0, 0, 4, 4]], numpy.float32)
        >>> index = numpy.array([0], numpy.int32)
        >>> F.roi_average_pooling_2d(x, rois, index, 2, 1.0).array
        array([[[[ 2.5,  4.5],
                 [10.5, 12.5]]]], dtype=float32)
    """
    return ROIAveragePooling2D(outsize, spatial_scale).apply((x, rois, roi_indices))[0]
