"""ROI pooling of Fast R-CNN: max pooling of boxes given with their image index."""

from __future__ import annotations

from chainer.functions.pooling import _roi
from chainer.functions.pooling.roi_max_pooling_2d import bin_maxima
from chainer.variable import Variable


class ROIPooling2D(_roi.ROIFunction):
    """Max pooling of boxes ``(image, x_min, y_min, x_max, y_max)``; box ends are inclusive."""

    def __init__(self, outh: int, outw: int, spatial_scale) -> None:
        self.outsize = _roi.parse_outsize((outh, outw))
        self.spatial_scale = _roi.check_spatial_scale(spatial_scale)

    def check_type_forward(self, in_types) -> None:
        _roi.check_roi_types(in_types, roi_columns=5)

    def forward(self, inputs: tuple) -> tuple:
        x, rois = inputs
        table = _roi.to_host(rois)
        images = _roi.checked_images(table[:, 0], x.shape[0])
        boxes = table[:, [2, 1, 4, 3]]  # to (y_min, x_min, y_max, x_max)
        y, self.plan = bin_maxima(
            x, boxes, images, self.outsize, self.spatial_scale, inclusive=True
        )
        return (y,)


def roi_pooling_2d(x, rois, outh: int, outw: int, spatial_scale) -> Variable:
    """Spatial Region of Interest (ROI) pooling function (Fast R-CNN).

    Each box is split into ``outh x outw`` bins of whole pixels and each bin is reduced to its
    maximum. Box corners are scaled by ``spatial_scale`` and rounded; both ends are part of
    the box, so ``(x_min, x_max) = (0, 3)`` spans 4 pixels. Prefer
    :func:`~chainer.functions.roi_max_pooling_2d`, which takes the image indexes separately.

    Args:
        x: Images of shape ``(n, c, h, w)`` and floating-point dtype.
        rois: Boxes ``(image_index, x_min, y_min, x_max, y_max)`` of shape ``(r, 5)`` and the
            dtype of ``x``.
        outh: Number of bins along the height.
        outw: Number of bins along the width.
        spatial_scale: Factor from the boxes' coordinates to ``x``'s.

    Returns:
        A variable of shape ``(r, c, outh, outw)``; bins outside the image are zero.

    Example:
        >>> x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
        >>> rois = numpy.array([[0, 0, 0, 3, 3]], numpy.float32)
        >>> F.roi_pooling_2d(x, rois, 2, 2, 1.0).array
        array([[[[ 5.,  7.],
                 [13., 15.]]]], dtype=float32)
    """
    return ROIPooling2D(outh, outw, spatial_scale).apply((x, rois))[0]
