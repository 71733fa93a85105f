"""spatial_pyramid_pooling_2d: the pyramid of max poolings, gradients and errors."""

import math

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from .conftest import FLOAT_DTYPES, distinct_values, loosen_for_float16, reference_pooling


def _max(values, _):
    return values.max(axis=2)


def _reference_pyramid(x, height):
    n, c, h, w = x.shape
    levels = []
    for level in range(height):
        bins = 2**level
        kh, kw = math.ceil(h / bins), math.ceil(w / bins)
        pad = ((kh * bins - h) // 2, (kw * bins - w) // 2)
        y = reference_pooling(x, (kh, kw), (kh, kw), pad, True, _max)
        levels.append(y.reshape(n, -1, 1, 1))
    return numpy.concatenate(levels, axis=1)


@testing.parameterize(
    *testing.product(
        {"shape": [(2, 3, 8, 8), (1, 2, 7, 6)], "height": [1, 3], "dtype": FLOAT_DTYPES}
    )
)
@testing.inject_backend_tests(None, [{}])
class TestSpatialPyramidPooling2D(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        return (distinct_values(self.shape, self.dtype),)

    def forward(self, inputs, device):
        return (F.spatial_pyramid_pooling_2d(inputs[0], self.height, pooling="max"),)

    def forward_expected(self, inputs):
        return (_reference_pyramid(inputs[0], self.height).astype(self.dtype),)


def test_pyramid_output_has_c_times_sum_of_bins_channels():
    y = F.spatial_pyramid_pooling_2d(numpy.zeros((2, 3, 9, 12), numpy.float32), 3, "max")
    assert y.shape == (2, 3 * (1 + 4 + 16), 1, 1)


def test_pyramid_rejects_unknown_pooling():
    with pytest.raises(ValueError, match=r"Unsupported pooling operation: 'average'"):
        F.spatial_pyramid_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.float32), 2, "average")


def test_pyramid_requires_pooling_as_v7():
    with pytest.raises(ValueError, match=r"pooling is required; give pooling='max'"):
        F.spatial_pyramid_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.float32), 2)


@pytest.mark.parametrize("height", [0, 1.5])
def test_pyramid_rejects_bad_height(height):
    with pytest.raises(ValueError, match=r"pyramid_height must be a positive int"):
        F.spatial_pyramid_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.float32), height, "max")


def test_pyramid_rejects_non_images():
    with pytest.raises(type_check.InvalidType, match=r"x\.ndim == 4"):
        F.spatial_pyramid_pooling_2d(numpy.zeros((1, 4, 4), numpy.float32), 2, "max")
