"""fmod."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "shapes": [((3, 4), (3, 4)), ((3, 4), (4,)), ((), ())],
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestFmod(testing.FunctionTestCase):
    dodge_nondifferentiable = True

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 5e-3, "rtol": 5e-3}
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        x_shape, d_shape = self.shapes
        x = numpy.random.uniform(-3, 3, x_shape)
        divisor = numpy.random.uniform(0.7, 1.3, d_shape) * numpy.random.choice([-1, 1], d_shape)
        return numpy.asarray(x, dtype=self.dtype), numpy.asarray(divisor, dtype=self.dtype)

    def forward(self, inputs, device):
        return (F.fmod(*inputs),)

    def forward_expected(self, inputs):
        x, divisor = (a.astype(numpy.float64) for a in inputs)
        quotient = numpy.trunc(x / divisor)
        return (numpy.asarray(x - quotient * divisor, dtype=self.dtype),)


def test_remainder_takes_the_sign_of_the_dividend():
    y = F.fmod(numpy.array([-7.0, 7.0, -7.0]), numpy.array([3.0, -3.0, -3.0]))
    numpy.testing.assert_array_equal(y.array, [-1.0, 1.0, -1.0])


def test_bad_inputs_are_rejected():
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype == divisor\.dtype"):
        F.fmod(numpy.ones(2, numpy.float32), numpy.ones(2, numpy.float64))
    with pytest.raises(type_check.InvalidType, match=r"cannot broadcast \(2,\), \(3,\)"):
        F.fmod(numpy.ones(2), numpy.ones(3))
