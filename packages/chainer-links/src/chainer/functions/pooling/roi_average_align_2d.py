"""ROI average align: the mean of bilinear samples of each bin of each box."""

from __future__ import annotations

from chainer import backend
from chainer.functions.pooling import _roi
from chainer.variable import Variable


def _sample_average(samples: tuple, bins: int):
    """Column (or row) factor averaging the ``grid`` bilinear samples of each bin."""
    (low, high, w_low, w_high), grid = samples
    first, weights = _roi.dense_weights(low, high, w_low, w_high)
    return first, weights.reshape(bins, grid, -1).sum(axis=1) / grid


class ROIAverageAlign2D(_roi.ROIFunction):
    """The mean of ``grid_y x grid_x`` bilinear samples per bin (RoIAlign)."""

    def __init__(self, outsize, spatial_scale, sampling_ratio=None) -> None:
        self.outsize = _roi.parse_outsize(outsize)
        self.spatial_scale = _roi.check_spatial_scale(spatial_scale)
        self.sampling_ratio = _roi.parse_sampling_ratio(sampling_ratio)

    def check_type_forward(self, in_types) -> None:
        _roi.check_roi_types(in_types)

    def forward(self, inputs: tuple) -> tuple:
        x, rois, roi_indices = inputs
        boxes, images = _roi.host_boxes(rois, roi_indices, x.shape[0])
        xp = backend.get_array_module(x)
        plan = _roi.SeparablePlan(x.shape, x.dtype, self.outsize, xp)
        for i, (box, image) in enumerate(zip(boxes, images)):
            rows, cols = _roi.box_samples(
                box, self.spatial_scale, self.outsize, self.sampling_ratio, x.shape[2:]
            )
            row0, a = _sample_average(rows, self.outsize[0])
            col0, b = _sample_average(cols, self.outsize[1])
            plan.add(i, int(image), row0, a, col0, b)
        self.plan = plan
        return (plan.apply(x, len(boxes)),)


def roi_average_align_2d(
    x, rois, roi_indices, outsize, spatial_scale, sampling_ratio=None
) -> Variable:
    """Spatial Region of Interest (ROI) average align function (RoIAlign of Mask R-CNN).

    Box ``i`` of image ``roi_indices[i]``, scaled by ``spatial_scale`` without rounding (and
    at least one pixel on each side), is split into ``out_h x out_w`` equal bins. Each bin
    averages ``grid_y x grid_x`` evenly spaced samples, each bilinearly interpolated from its
    four neighbouring pixels; samples more than one pixel outside the image count as zero.

    Args:
        x: Images of shape ``(n, c, h, w)`` and floating-point dtype.
        rois: Boxes ``(y_min, x_min, y_max, x_max)`` of shape ``(r, 4)`` and the dtype of ``x``.
        roi_indices: Image index of each box, an integer array of shape ``(r,)``.
        outsize: ``(out_h, out_w)`` or an int for both.
        spatial_scale: Factor from the boxes' coordinates to ``x``'s.
        sampling_ratio: Samples per bin along each axis: an int, a pair, or ``None`` (per
            axis) for ``ceil(bin size)``.

    Returns:
        A variable of shape ``(r, c, out_h, out_w)``.

    Example:
        >>> x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
        >>> rois = numpy.array([[0, 0, 2, 2]], numpy.float32)
        >>> index = numpy.array([0], numpy.int32)
        >>> F.roi_average_align_2d(x, rois, index, 1, 1.0, sampling_ratio=1).array
        array([[[[5.]]]], dtype=float32)
    """
    node = ROIAverageAlign2D(outsize, spatial_scale, sampling_ratio)
    return node.apply((x, rois, roi_indices))[0]
