"""moveaxis: a transpose of the input; forward against numpy.transpose, gradients, checks."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX

# (arguments, the axes of the (2, 3, 4) input in output order)
_CASES = [
    ((0, 2), (1, 2, 0)),
    ((-1, 0), (2, 0, 1)),
    (((0, 1), (2, 0)), (1, 2, 0)),
    (((0, 2), (-1, -3)), (2, 1, 0)),
]


@testing.parameterize(
    *testing.product({"case": _CASES, "dtype": [numpy.float16, numpy.float32, numpy.float64]})
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestMoveaxis(testing.FunctionTestCase):
    def setUp(self):
        self.args, self.order = self.case
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (2, 3, 4)).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.moveaxis(inputs[0], *self.args),)

    def forward_expected(self, inputs):
        return (numpy.ascontiguousarray(inputs[0].transpose(self.order)),)


_X = numpy.zeros((2, 3, 4), numpy.float32)


def test_axes_out_of_range_are_rejected():
    with pytest.raises(type_check.InvalidType, match=r"-3 <= source < 3(.|\n)*source == 3"):
        F.moveaxis(_X, 3, 0)
    with pytest.raises(type_check.InvalidType, match=r"destination == -4"):
        F.moveaxis(_X, 0, -4)


def test_bad_axis_arguments_are_rejected():
    with pytest.raises(ValueError, match=r"source has repeated axes: \(0, -3\)"):
        F.moveaxis(_X, (0, -3), (1, 2))
    with pytest.raises(ValueError, match="same number of axes, got 2 and 1"):
        F.moveaxis(_X, (0, 1), (1,))
    with pytest.raises(TypeError, match="source must be an int or a tuple of ints, got list"):
        F.moveaxis(_X, [0], 1)
