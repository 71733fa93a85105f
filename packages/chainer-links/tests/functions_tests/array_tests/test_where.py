"""where: choice by condition with broadcasting, gradients to both branches, the checks."""

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
            "shapes": [
                ((3, 2), (3, 2), (3, 2)),
                ((3, 1), (1, 2), (3, 2)),
                ((2,), (3, 2), ()),
                ((), (2,), (2,)),
                ((0, 2), (0, 2), (1, 2)),
            ],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestWhere(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        c_shape, x_shape, y_shape = self.shapes
        condition = numpy.asarray(numpy.random.uniform(-1, 1, c_shape) > 0)
        x = numpy.random.uniform(-1, 1, x_shape).astype(self.dtype)
        y = numpy.random.uniform(-1, 1, y_shape).astype(self.dtype)
        return condition, x, y

    def forward(self, inputs, device):
        condition, x, y = inputs
        return (F.where(condition, x, y),)

    def forward_expected(self, inputs):
        condition, x, y = inputs
        shape = numpy.broadcast_shapes(condition.shape, x.shape, y.shape)
        c, xb, yb = (numpy.broadcast_to(a, shape) for a in (condition, x, y))
        out = numpy.empty(shape, self.dtype)
        for index in numpy.ndindex(*shape):
            out[index] = xb[index] if c[index] else yb[index]
        return (out,)


def test_condition_may_be_a_variable():
    condition = chainer.Variable(numpy.array([True, False]))
    y = F.where(condition, numpy.zeros(2, numpy.float32), numpy.ones(2, numpy.float32))
    numpy.testing.assert_array_equal(y.array, [0, 1])


def test_bad_inputs_are_rejected():
    x = numpy.zeros(2, numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"condition.dtype == <class 'numpy.bool"):
        F.where(numpy.zeros(2, numpy.int32), x, x)
    with pytest.raises(type_check.InvalidType, match=r"x.dtype == y.dtype"):
        F.where(numpy.ones(2, bool), x, numpy.zeros(2, numpy.float64))
    with pytest.raises(type_check.InvalidType, match=r"condition.shape=\(3,\), x.shape=\(2,\)"):
        F.where(numpy.ones(3, bool), x, x)
    with pytest.raises(
        TypeError, match=r"condition must be a boolean array or Variable, got list"
    ):
        F.where([True, False], x, x)
