"""roi_average_align_2d and roi_max_align_2d: values, gradients and argument errors."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing

from .conftest import (
    FLOAT_DTYPES,
    dodge_kinks_unless_float16,
    loosen_for_float16,
    reference_roi_align,
    roi_inputs,
)


def _average(samples, count, channels):
    return sum((s for s in samples if s is not None), numpy.zeros(channels)) / count


def _max(samples, count, channels):
    valid = [s for s in samples if s is not None]
    return numpy.max(valid, axis=0) if valid else numpy.zeros(channels)


_FUNCS = {"average": (F.roi_average_align_2d, _average), "max": (F.roi_max_align_2d, _max)}


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "kind": ["average", "max"],
            "case": [((3, 2), 1.0, None), (2, 0.6, 2), ((2, 3), 1.0, (1, None))],
            "dtype": FLOAT_DTYPES,
        }
    )
)
@testing.inject_backend_tests(None, [{}])
class TestROIAlign(testing.FunctionTestCase):
    def setUp(self):
        self.func, self.reduce = _FUNCS[self.kind]
        self.outsize, self.scale, self.sampling_ratio = self.case
        loosen_for_float16(self)
        if self.kind == "max":
            dodge_kinks_unless_float16(self)
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 5e-3, "rtol": 5e-3}

    def generate_inputs(self):
        self.x, self.rois, self.roi_indices = roi_inputs(self.dtype)
        return (self.x,)

    def forward(self, inputs, device):
        y = self.func(
            inputs[0], self.rois, self.roi_indices, self.outsize, self.scale, self.sampling_ratio
        )
        return (y,)

    def forward_expected(self, inputs):
        outsize = (self.outsize,) * 2 if isinstance(self.outsize, int) else self.outsize
        y = reference_roi_align(
            inputs[0],
            self.rois,
            self.roi_indices,
            outsize,
            self.scale,
            self.sampling_ratio,
            self.reduce,
        )
        return (y.astype(self.dtype),)


def test_roi_align_samples_bilinearly():
    x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    rois = numpy.array([[0, 0, 3, 3]], numpy.float32)
    index = numpy.array([0], numpy.int32)
    # samples at 0.75 and 2.25 on each axis: the value of x there is 4 * y + x
    average = F.roi_average_align_2d(x, rois, index, 1, 1.0, sampling_ratio=2).array
    numpy.testing.assert_allclose(average, [[[[7.5]]]])
    largest = F.roi_max_align_2d(x, rois, index, 1, 1.0, sampling_ratio=2).array
    numpy.testing.assert_allclose(largest, [[[[11.25]]]])


def test_roi_max_align_bins_without_samples_are_zero():
    x = numpy.ones((1, 1, 4, 4), numpy.float32)
    rois = numpy.array([[10, 10, 14, 14]], numpy.float32)
    y = F.roi_max_align_2d(x, rois, numpy.array([0], numpy.int32), 2, 1.0)
    numpy.testing.assert_array_equal(y.array, numpy.zeros((1, 1, 2, 2)))


@pytest.mark.parametrize("func", [F.roi_average_align_2d, F.roi_max_align_2d])
@pytest.mark.parametrize("sampling_ratio", [0, (2, 0), 1.5, (1, 2, 3)])
def test_roi_align_rejects_bad_sampling_ratio(func, sampling_ratio):
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    rois = numpy.zeros((1, 4), numpy.float32)
    with pytest.raises(TypeError, match=r"sampling_ratio must be None, an integer >= 1"):
        func(x, rois, numpy.zeros(1, numpy.int32), 2, 1.0, sampling_ratio)


@pytest.mark.parametrize("kind", ["average", "max"])
def test_roi_align_boxes_sampled_partly_past_the_border(kind):
    # Scaled by 2, the box puts samples more than a pixel outside the image next to samples
    # inside it: only the inside ones weigh pixels (the others once indexed past the span).
    func, reduce = _FUNCS[kind]
    x = numpy.linspace(-1, 1, 96).reshape(1, 1, 12, 8)
    rois = numpy.array([[2, 6, 11, 7], [1, 3, 10, 5]], numpy.float64)
    roi_indices = numpy.array([0, 0], numpy.int32)
    y = func(x, rois, roi_indices, 5, 2.0, sampling_ratio=1)
    expected = reference_roi_align(x, rois, roi_indices, (5, 5), 2.0, 1, reduce)
    numpy.testing.assert_allclose(y.array, expected, atol=1e-12)
