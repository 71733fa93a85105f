"""roi_max_pooling_2d and roi_average_pooling_2d: values, gradients and argument errors."""

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

_FUNCS = {
    "max": (F.roi_max_pooling_2d, lambda v: v.max(axis=1)),
    "average": (F.roi_average_pooling_2d, lambda v: v.mean(axis=1)),
}


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "kind": ["max", "average"],
            "outsize_scale": [((3, 2), 1.0), (1, 0.6)],
            "dtype": FLOAT_DTYPES,
        }
    )
)
@testing.inject_backend_tests(None, [{}])
class TestROIPooling(testing.FunctionTestCase):
    def setUp(self):
        self.func, self.reduce = _FUNCS[self.kind]
        self.outsize, self.scale = self.outsize_scale
        loosen_for_float16(self)
        if self.kind == "max":
            dodge_kinks_unless_float16(self)

    def generate_inputs(self):
        self.x, self.rois, self.roi_indices = roi_inputs(self.dtype)
        return (self.x,)

    def forward(self, inputs, device):
        return (self.func(inputs[0], self.rois, self.roi_indices, self.outsize, self.scale),)

    def forward_expected(self, inputs):
        outsize = (self.outsize,) * 2 if isinstance(self.outsize, int) else self.outsize
        y = reference_roi_pooling(
            inputs[0], self.rois, self.roi_indices, outsize, self.scale, self.reduce
        )
        return (y.astype(self.dtype),)


def test_roi_max_pooling_matches_max_pooling_on_a_whole_image():
    x = numpy.random.permutation(2 * 16).reshape(2, 1, 4, 4).astype(numpy.float32)
    rois = numpy.array([[0, 0, 4, 4], [0, 0, 4, 4]], numpy.float32)
    y = F.roi_max_pooling_2d(x, rois, numpy.array([1, 0], numpy.int32), 2, 1.0)
    numpy.testing.assert_array_equal(y.array, F.max_pooling_2d(x, 2).array[::-1])


def test_roi_pooling_accepts_no_boxes():
    x = numpy.ones((1, 2, 4, 4), numpy.float32)
    rois = numpy.zeros((0, 4), numpy.float32)
    y = F.roi_average_pooling_2d(x, rois, numpy.zeros(0, numpy.int32), 3, 1.0)
    assert y.shape == (0, 2, 3, 3)


_X = numpy.zeros((2, 1, 4, 4), numpy.float32)
_ROIS = numpy.zeros((3, 4), numpy.float32)
_INDEX = numpy.zeros(3, numpy.int32)


@pytest.mark.parametrize("func", [F.roi_max_pooling_2d, F.roi_average_pooling_2d])
@pytest.mark.parametrize(
    "rois, roi_indices, message",
    [
        (numpy.zeros((3, 5), numpy.float32), _INDEX, r"rois\.shape\[1\] == 4"),
        (_ROIS.astype(numpy.int32), _INDEX, r"rois\.dtype\.kind == f"),
        (_ROIS, _INDEX.astype(numpy.float32), r"roi_indices\.dtype\.kind == i"),
        (_ROIS, numpy.zeros(2, numpy.int32), r"rois\.shape\[0\] == roi_indices\.shape\[0\]"),
    ],
)
def test_roi_pooling_rejects_bad_boxes(func, rois, roi_indices, message):
    with pytest.raises(type_check.InvalidType, match=message):
        func(_X, rois, roi_indices, 2, 1.0)


def test_roi_pooling_rejects_indexes_outside_the_batch():
    with pytest.raises(ValueError, match=r"roi indexes must be in \[0, 2\).*\[0, 2\]"):
        F.roi_max_pooling_2d(_X, _ROIS, numpy.array([0, 2, 1], numpy.int32), 2, 1.0)


@pytest.mark.parametrize(
    "outsize, spatial_scale, error, message",
    [
        ((2, 2, 2), 1.0, TypeError, r"outsize must be an int or a pair of ints, got \(2, 2, 2\)"),
        (0, 1.0, ValueError, r"outsize must be positive, got 0"),
        (2, -1.0, TypeError, r"spatial_scale must be a positive float number, got -1\.0"),
        (2, "1", TypeError, r"spatial_scale must be a positive float number"),
    ],
)
def test_roi_pooling_rejects_bad_arguments(outsize, spatial_scale, error, message):
    with pytest.raises(error, match=message):
        F.roi_average_pooling_2d(_X, _ROIS, _INDEX, outsize, spatial_scale)
