"""flip: reversal of one axis against explicit index arrays, gradients, checks."""

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
                ((2, 3), 1),
                ((2, 3, 2), -3),
                ((0, 2), 0),
            ],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestFlip(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.axis = self.shape_axis
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.flip(inputs[0], self.axis),)

    def forward_expected(self, inputs):
        return (_reverse(inputs[0], self.axis),)


def test_flip_axis_out_of_range_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"x.ndim > 2"):
        F.flip(numpy.zeros((2, 2), numpy.float32), 2)
    with pytest.raises(type_check.InvalidType, match=r"x.ndim >= 3"):
        F.flip(numpy.zeros((2, 2), numpy.float32), -3)


def test_flip_of_a_scalar_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"x.ndim > 0"):
        F.flip(numpy.zeros((), numpy.float32), 0)


def test_flip_axis_must_be_int():
    with pytest.raises(TypeError, match=r"axis must be an int, got tuple"):
        F.flip(numpy.zeros((2, 2), numpy.float32), (0, 1))


def test_the_private_flip_reverses_an_array_along_the_axis():
    from chainer.functions.array.flip import _flip

    x = numpy.arange(6).reshape(2, 3)
    numpy.testing.assert_array_equal(_flip(x, 1), [[2, 1, 0], [5, 4, 3]])
    numpy.testing.assert_array_equal(_flip(x, -2), [[3, 4, 5], [0, 1, 2]])
