"""spatial_transformer_sampler: bilinear sampling against a per-pixel loop, gradients of
both inputs (away from the kinks at pixel centres), and the checks."""

import math

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


def _sample_loops(x, grid):
    n, c, h, w = x.shape
    out_h, out_w = grid.shape[2:]
    xf = x.astype(numpy.float64)
    y = numpy.zeros((n, c, out_h, out_w))

    def pixel(b, row, col):
        if 0 <= row < h and 0 <= col < w:
            return xf[b, :, row, col]
        return numpy.zeros(c)

    for b in range(n):
        for i in range(out_h):
            for j in range(out_w):
                # Unpadded pixel coordinates, clamped to one pixel outside the image.
                u = min(max((float(grid[b, 0, i, j]) + 1) * (w - 1) / 2, -1.0), float(w))
                v = min(max((float(grid[b, 1, i, j]) + 1) * (h - 1) / 2, -1.0), float(h))
                u0 = min(math.floor(u), w - 1)
                v0 = min(math.floor(v), h - 1)
                du, dv = u - u0, v - v0
                y[b, :, i, j] = (
                    (1 - dv) * (1 - du) * pixel(b, v0, u0)
                    + (1 - dv) * du * pixel(b, v0, u0 + 1)
                    + dv * (1 - du) * pixel(b, v0 + 1, u0)
                    + dv * du * pixel(b, v0 + 1, u0 + 1)
                )
    return y.astype(x.dtype)


def _grid_away_from_kinks(n, out_h, out_w, h, w, outside, dtype):
    """Locations at least 0.2 pixel away from pixel centres (where the gradient jumps)."""
    grid = numpy.empty((n, 2, out_h, out_w))
    for axis, size in ((0, w), (1, h)):
        low, high = (-1, size) if outside else (0, size - 1)
        pixel = numpy.random.randint(low, high, (n, out_h, out_w))
        position = pixel + numpy.random.uniform(0.2, 0.8, (n, out_h, out_w))
        grid[:, axis] = position * 2 / (size - 1) - 1
    if outside:
        grid[:, :, 0, 0] = 3.0  # far outside: clamped, zero output and zero gradient
    return grid.astype(dtype)


@testing.parameterize(
    *testing.product(
        {
            "outside": [False, True],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSpatialTransformerSampler(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 2e-2, "rtol": 2e-2}
            self.check_backward_options = {"atol": 5e-2, "rtol": 1e-1}
            self.check_double_backward_options = {"atol": 5e-2, "rtol": 1e-1}
        else:
            self.check_backward_options = {"atol": 1e-3, "rtol": 1e-2}
            self.check_double_backward_options = {"atol": 1e-3, "rtol": 1e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (2, 2, 3, 4)).astype(self.dtype)
        grid = _grid_away_from_kinks(2, 2, 3, 3, 4, self.outside, self.dtype)
        return x, grid

    def forward(self, inputs, device):
        return (F.spatial_transformer_sampler(*inputs),)

    def forward_expected(self, inputs):
        return (_sample_loops(*inputs),)


def test_far_outside_locations_read_zero():
    x = numpy.ones((1, 1, 2, 2), numpy.float32)
    grid = numpy.full((1, 2, 1, 2), 5.0, numpy.float32)
    numpy.testing.assert_array_equal(F.spatial_transformer_sampler(x, grid).array, [[[[0, 0]]]])


def test_sampler_checks():
    x = numpy.zeros((1, 1, 2, 2), numpy.float32)
    grid = numpy.zeros((1, 2, 1, 1), numpy.float32)
    with pytest.raises(
        type_check.InvalidType, match=r"SpatialTransformerSampler(.|\n)*grid.dtype == x.dtype"
    ):
        F.spatial_transformer_sampler(x, grid.astype(numpy.float64))
    with pytest.raises(type_check.InvalidType, match=r"grid.shape\[1\] == 2"):
        F.spatial_transformer_sampler(x, numpy.zeros((1, 3, 1, 1), numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r"x.shape\[0\] == grid.shape\[0\]"):
        F.spatial_transformer_sampler(x, numpy.zeros((2, 2, 1, 1), numpy.float32))
    with pytest.raises(ValueError, match=r'"use_cudnn" is not supported anymore'):
        F.spatial_transformer_sampler(x, grid, use_cudnn=False)
