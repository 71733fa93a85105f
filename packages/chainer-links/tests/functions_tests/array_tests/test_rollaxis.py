"""rollaxis: a transpose of the input; forward against numpy.transpose, gradients, checks."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX

# (arguments, the axes of the (2, 3, 4) input in output order)
_CASES = [
    ((2, 0), (2, 0, 1)),
    ((0, 3), (1, 2, 0)),
    ((1, 1), (0, 1, 2)),
    ((0, -1), (1, 0, 2)),
]


@testing.parameterize(
    *testing.product({"case": _CASES, "dtype": [numpy.float16, numpy.float32, numpy.float64]})
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestRollaxis(testing.FunctionTestCase):
    def setUp(self):
        self.args, self.order = self.case
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (2, 3, 4)).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.rollaxis(inputs[0], *self.args),)

    def forward_expected(self, inputs):
        return (numpy.ascontiguousarray(inputs[0].transpose(self.order)),)


_X = numpy.zeros((2, 3, 4), numpy.float32)


def test_axis_and_start_out_of_range_are_rejected():
    with pytest.raises(type_check.InvalidType, match=r"axis == 3"):
        F.rollaxis(_X, 3)
    with pytest.raises(type_check.InvalidType, match=r"-3 <= start <= 3(.|\n)*start == 4"):
        F.rollaxis(_X, 0, 4)


def test_non_int_start_is_rejected():
    with pytest.raises(TypeError, match="start must be an int, got float"):
        F.rollaxis(_X, 0, 1.0)
