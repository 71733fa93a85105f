"""separate: slices along an axis, gradients (also of unused slices) and the axis check."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


@testing.parameterize(
    *testing.product(
        {
            "shape_axis": [((3, 2), 0), ((3, 2), 1), ((2, 3, 2), -2), ((4,), 0)],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSeparate(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.axis = self.shape_axis
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return F.separate(inputs[0], self.axis)

    def forward_expected(self, inputs):
        (x,) = inputs
        moved = numpy.moveaxis(x, self.axis, 0)
        return tuple(numpy.array(moved[i]) for i in range(moved.shape[0]))


def test_gradient_of_unused_slices_is_zero():
    x = chainer.Variable(numpy.ones((3, 2), numpy.float32))
    a, b, c = F.separate(x)
    y = b * 2
    y.grad = numpy.ones_like(y.array)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 0], [2, 2], [0, 0]])


def test_axis_out_of_range_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"-2 <= axis < 2 \(x is 2-D\)"):
        F.separate(numpy.zeros((2, 2), numpy.float32), axis=2)
