"""stack: forward against hand-placed slices, gradients, and the input checks."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


@testing.parameterize(
    *testing.product(
        {
            "shape_axis": [
                ((2, 3), 0),
                ((2, 3), 1),
                ((2, 3), 2),
                ((2, 3), -1),
                ((), 0),
                ((0, 2), 1),
            ],
            "n": [1, 3],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestStack(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.axis = self.shape_axis
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return tuple(
            numpy.random.uniform(-1, 1, self.shape).astype(self.dtype) for _ in range(self.n)
        )

    def forward(self, inputs, device):
        return (F.stack(inputs, self.axis),)

    def forward_expected(self, inputs):
        ndim = len(self.shape) + 1
        axis = self.axis % ndim
        shape = list(self.shape)
        shape.insert(axis, self.n)
        y = numpy.empty(shape, self.dtype)
        for i, x in enumerate(inputs):
            y[(slice(None),) * axis + (i,)] = x
        return (y,)


def test_shape_mismatch_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"xs\[0\].shape == xs\[1\].shape"):
        F.stack([numpy.zeros((2,), numpy.float32), numpy.zeros((3,), numpy.float32)])


def test_dtype_mismatch_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"xs\[0\].dtype == xs\[1\].dtype"):
        F.stack([numpy.zeros((2,), numpy.float32), numpy.zeros((2,), numpy.float64)])


def test_axis_out_of_range_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"-3 <= axis <= 2"):
        F.stack([numpy.zeros((2, 2), numpy.float32)], axis=3)


def test_no_inputs_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"in_types.size\(\) > 0"):
        F.stack([])
