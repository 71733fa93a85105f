"""space2depth: pixel blocks to channel blocks against loops, gradients, checks."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


def _space2depth_loops(x, r):
    n, c, hr, wr = x.shape
    y = numpy.empty((n, c * r * r, hr // r, wr // r), x.dtype)
    for i in range(r):
        for j in range(r):
            for k in range(c):
                y[:, (i * r + j) * c + k] = x[:, k, i::r, j::r]
    return y


_TOLERANCES = {"atol": 5e-3, "rtol": 5e-2}


@testing.parameterize(
    *testing.product(
        {
            "shape_r": [((1, 1, 4, 6), 2), ((2, 2, 3, 3), 3), ((1, 3, 2, 2), 1)],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSpace2Depth(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.r = self.shape_r
        if self.dtype == numpy.float16:
            self.check_backward_options = _TOLERANCES
            self.check_double_backward_options = _TOLERANCES

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.space2depth(inputs[0], self.r),)

    def forward_expected(self, inputs):
        return (_space2depth_loops(inputs[0], self.r),)


def test_spatial_size_not_divisible_by_r_is_rejected():
    x = numpy.zeros((1, 1, 4, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"X.shape\[3\] % 2 == 0"):
        F.space2depth(x, 2)


def test_non_float_and_non_4d_inputs_are_rejected():
    with pytest.raises(type_check.InvalidType, match=r"X.dtype.kind == f"):
        F.space2depth(numpy.zeros((1, 4, 2, 2), numpy.int32), 2)
    with pytest.raises(type_check.InvalidType, match=r"X.ndim == 4"):
        F.space2depth(numpy.zeros((4, 2, 2), numpy.float32), 2)


def test_bad_ratio_is_rejected():
    x = numpy.zeros((1, 4, 2, 2), numpy.float32)
    with pytest.raises(ValueError, match="r must be positive, got 0"):
        F.space2depth(x, 0)
    with pytest.raises(TypeError, match="r must be an int, got float"):
        F.space2depth(x, 2.0)
