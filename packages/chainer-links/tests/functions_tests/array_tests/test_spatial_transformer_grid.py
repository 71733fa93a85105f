"""spatial_transformer_grid: the affine sampling grid against a loop, gradients, checks."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX

_LOOSE = {"atol": 5e-3, "rtol": 5e-2}


def _grid_loops(theta, out_h, out_w):
    n = len(theta)
    grid = numpy.empty((n, 2, out_h, out_w))
    ys = numpy.linspace(-1, 1, out_h)
    xs = numpy.linspace(-1, 1, out_w)
    for b in range(n):
        for i in range(out_h):
            for j in range(out_w):
                grid[b, :, i, j] = theta[b].astype(numpy.float64) @ [xs[j], ys[i], 1.0]
    return grid.astype(theta.dtype)


@testing.parameterize(
    *testing.product(
        {
            "output_shape": [(3, 4), (1, 2)],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSpatialTransformerGrid(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 5e-3, "rtol": 5e-3}
            self.check_backward_options = _LOOSE
            self.check_double_backward_options = _LOOSE

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (2, 2, 3)).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.spatial_transformer_grid(inputs[0], self.output_shape),)

    def forward_expected(self, inputs):
        return (_grid_loops(inputs[0], *self.output_shape),)


def test_grid_checks():
    with pytest.raises(type_check.InvalidType, match=r"theta.shape\[2\] == 3"):
        F.spatial_transformer_grid(numpy.zeros((1, 2, 2), numpy.float32), (2, 2))
    with pytest.raises(ValueError, match=r"output_shape must be two positive ints"):
        F.spatial_transformer_grid(numpy.zeros((1, 2, 3), numpy.float32), (0, 2))
    with pytest.raises(ValueError, match=r'"use_cudnn" is not supported anymore'):
        F.spatial_transformer_grid(numpy.zeros((1, 2, 3), numpy.float32), (2, 2), use_cudnn=True)
    with pytest.raises(TypeError):
        F.spatial_transformer_grid(numpy.zeros((1, 2, 3), numpy.float32), (2, 2), foo=1)
