"""linear_interpolate."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {"dtype": [numpy.float16, numpy.float32, numpy.float64], "shape": [(3, 4), (), (0, 2)]}
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestLinearInterpolate(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 1e-3, "rtol": 1e-3}
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        p = numpy.random.uniform(0, 1, self.shape).astype(self.dtype)
        x, y = (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype) for _ in range(2))
        return p, x, y

    def forward(self, inputs, device):
        return (F.linear_interpolate(*inputs),)

    def forward_expected(self, inputs):
        p, x, y = (a.astype(numpy.float64) for a in inputs)
        return (numpy.asarray(p * x + (1 - p) * y, dtype=self.dtype),)


def test_mismatched_inputs_are_rejected():
    a = numpy.ones(3, numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"x\.shape == y\.shape"):
        F.linear_interpolate(a, a, numpy.ones(2, numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r"p\.dtype == x\.dtype"):
        F.linear_interpolate(a, numpy.ones(3), numpy.ones(3))
