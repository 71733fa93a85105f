"""flipud: reversal of axis 0 against explicit index arrays, gradients, checks."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


def _reverse(x, axis):
    index = [slice(None)] * x.ndim
    index[axis] = numpy.arange(x.shape[axis])[::-1]
    return x[tuple(index)]


@testing.parameterize(
    *testing.product(
        {
            "shape_axis": [
                ((3,), 0),
                ((3, 2), 0),
            ],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestFlipUD(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.axis = self.shape_axis
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.flipud(inputs[0]),)

    def forward_expected(self, inputs):
        return (_reverse(inputs[0], self.axis),)


def test_flipud_needs_one_dimension():
    with pytest.raises(type_check.InvalidType, match=r"x.ndim > 0"):
        F.flipud(numpy.zeros((), numpy.float32))
