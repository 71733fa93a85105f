"""roi_pooling_2d (Fast R-CNN boxes with their image index): values, gradients, errors."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from .conftest import (
    FLOAT_DTYPES,
    dodge_kinks_unless_float16,
    loosen_for_float16,
    reference_roi_pooling,
    roi_inputs,
)


@testing.fix_random()
@testing.parameterize(
    *testing.product({"outsize_scale": [((3, 2), 1.0), ((1, 1), 0.6)], "dtype": FLOAT_DTYPES})
)
@testing.inject_backend_tests(None, [{}])
class TestROIPooling2D(testing.FunctionTestCase):
    def setUp(self):
        self.outsize, self.scale = self.outsize_scale
        loosen_for_float16(self)
        dodge_kinks_unless_float16(self)

    def generate_inputs(self):
        x, boxes, self.images = roi_inputs(self.dtype)
        self.boxes = boxes
        # (image, x_min, y_min, x_max, y_max)
        self.rois = numpy.concatenate(
            [self.images[:, None].astype(self.dtype), boxes[:, [1, 0, 3, 2]]], axis=1
        )
        return (x,)

    def forward(self, inputs, device):
        return (F.roi_pooling_2d(inputs[0], self.rois, *self.outsize, self.scale),)

    def forward_expected(self, inputs):
        y = reference_roi_pooling(
            inputs[0],
            self.boxes,
            self.images,
            self.outsize,
            self.scale,
            lambda v: v.max(axis=1),
            inclusive=True,
        )
        return (y.astype(self.dtype),)


def test_roi_pooling_2d_box_ends_are_inclusive():
    x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    rois = numpy.array([[0, 0, 0, 1, 1]], numpy.float32)  # 2 x 2 pixels
    numpy.testing.assert_array_equal(
        F.roi_pooling_2d(x, rois, 2, 2, 1.0).array[0, 0], [[0, 1], [4, 5]]
    )


def test_roi_pooling_2d_rejects_four_column_boxes():
    with pytest.raises(type_check.InvalidType, match=r"rois\.shape\[1\] == 5"):
        F.roi_pooling_2d(
            numpy.zeros((1, 1, 4, 4), numpy.float32), numpy.zeros((2, 4), numpy.float32), 2, 2, 1.0
        )


def test_roi_pooling_2d_rejects_image_index_outside_the_batch():
    rois = numpy.array([[3, 0, 0, 1, 1]], numpy.float32)
    with pytest.raises(ValueError, match=r"roi indexes must be in \[0, 1\)"):
        F.roi_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.float32), rois, 2, 2, 1.0)
