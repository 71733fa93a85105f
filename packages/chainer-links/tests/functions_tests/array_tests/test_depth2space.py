"""depth2space: channel blocks to pixel blocks against loops, gradients, checks."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


def _depth2space_loops(x, r):
    n, crr, h, w = x.shape
    c = crr // (r * r)
    y = numpy.empty((n, c, h * r, w * r), x.dtype)
    for i in range(r):
        for j in range(r):
            for k in range(c):
                y[:, k, i::r, j::r] = x[:, (i * r + j) * c + k]
    return y


_TOLERANCES = {"atol": 5e-3, "rtol": 5e-2}


@testing.parameterize(
    *testing.product(
        {
            "shape_r": [((1, 4, 2, 3), 2), ((2, 18, 1, 2), 3), ((1, 3, 2, 2), 1)],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestDepth2Space(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.r = self.shape_r
        if self.dtype == numpy.float16:
            self.check_backward_options = _TOLERANCES
            self.check_double_backward_options = _TOLERANCES

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.depth2space(inputs[0], self.r),)

    def forward_expected(self, inputs):
        return (_depth2space_loops(inputs[0], self.r),)


def test_the_two_are_inverse():
    x = numpy.random.uniform(-1, 1, (2, 8, 3, 2)).astype(numpy.float32)
    numpy.testing.assert_array_equal(F.space2depth(F.depth2space(x, 2), 2).array, x)


def test_channels_not_divisible_by_r_squared_are_rejected():
    x = numpy.zeros((1, 6, 2, 2), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"X.shape\[1\] % 4 == 0"):
        F.depth2space(x, 2)


def test_non_float_and_non_4d_inputs_are_rejected():
    with pytest.raises(type_check.InvalidType, match=r"X.dtype.kind == f"):
        F.depth2space(numpy.zeros((1, 4, 2, 2), numpy.int32), 2)
    with pytest.raises(type_check.InvalidType, match=r"X.ndim == 4"):
        F.depth2space(numpy.zeros((4, 2, 2), numpy.float32), 2)


def test_bad_ratio_is_rejected():
    x = numpy.zeros((1, 4, 2, 2), numpy.float32)
    with pytest.raises(ValueError, match="r must be positive, got 0"):
        F.depth2space(x, 0)
    with pytest.raises(TypeError, match="r must be an int, got float"):
        F.depth2space(x, 2.0)
