"""clip."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "bounds": [(-0.5, 0.5), (None, 0.3), (-0.3, None)],
            "shape": [(3, 4), (), (0,)],
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestClip(testing.FunctionTestCase):
    dodge_nondifferentiable = True

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.clip(inputs[0], *self.bounds),)

    def forward_expected(self, inputs):
        y = inputs[0].copy()
        low, high = self.bounds
        if low is not None:
            y[y < low] = low
        if high is not None:
            y[y > high] = high
        return (y,)


def test_gradient_is_zero_outside_the_interval():
    x = chainer.Variable(numpy.array([-2.0, 0.0, 2.0]))
    F.sum(F.clip(x, -1.0, 1.0)).backward()
    numpy.testing.assert_array_equal(x.grad, [0.0, 1.0, 0.0])


def test_bad_bounds_and_inputs_are_rejected():
    with pytest.raises(ValueError, match="needs x_min or x_max"):
        F.clip(numpy.ones(2), None, None)
    with pytest.raises(ValueError, match=r"x_min must be less than x_max, got x_min=1\.0"):
        F.clip(numpy.ones(2), 1.0, 0.0)
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.clip(numpy.ones(2, numpy.int32), 0, 1)
