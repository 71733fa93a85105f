"""diagonal: forward against an index loop, gradients (DiagonalGrad) and the axis checks."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


def _diagonal_loops(x, offset, axis1, axis2):
    planes = numpy.moveaxis(x, (axis1, axis2), (-2, -1))
    rows, cols = planes.shape[-2:]
    items = [planes[..., i, i + offset] for i in range(rows) if 0 <= i + offset < cols]
    if not items:
        return numpy.zeros(planes.shape[:-2] + (0,), x.dtype)
    return numpy.stack(items, axis=-1)


@testing.parameterize(
    *testing.product(
        {
            "case": [
                ((3, 3), 0, 0, 1),
                ((3, 4), 1, 0, 1),
                ((4, 3), -2, 0, 1),
                ((2, 3, 4), 0, 2, 0),
                ((2, 3, 4), 1, -1, 1),
                ((2, 2), 5, 0, 1),  # an empty diagonal
            ],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestDiagonal(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.offset, self.axis1, self.axis2 = self.case
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.diagonal(inputs[0], self.offset, self.axis1, self.axis2),)

    def forward_expected(self, inputs):
        return (_diagonal_loops(inputs[0], self.offset, self.axis1, self.axis2),)


def test_output_is_writable():
    y = F.diagonal(numpy.eye(3, dtype=numpy.float32))
    y.array[0] = 5
    assert y.array[0] == 5


def test_one_dimensional_input_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"x.ndim >= 2"):
        F.diagonal(numpy.zeros(3, numpy.float32))


def test_axis_out_of_range_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"-2 <= axis2 < 2"):
        F.diagonal(numpy.zeros((2, 2), numpy.float32), axis2=2)


def test_same_axes_are_rejected():
    with pytest.raises(type_check.InvalidType, match=r"axis1=0, axis2=-2"):
        F.diagonal(numpy.zeros((2, 2), numpy.float32), axis1=0, axis2=-2)
