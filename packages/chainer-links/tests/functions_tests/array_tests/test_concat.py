"""concat: forward against numpy.concatenate, gradients, and the input checks."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.array.concat import Concat
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


@testing.parameterize(
    *testing.product(
        {
            "shapes_axis": [
                ([(2, 3), (2, 1), (2, 4)], 1),
                ([(2, 3), (4, 3)], 0),
                ([(2, 2, 3), (2, 2, 1)], -1),
                ([(3,), (0,), (2,)], 0),
                ([(1, 2)], 1),
            ],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestConcat(testing.FunctionTestCase):
    def setUp(self):
        self.shapes, self.axis = self.shapes_axis
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.shapes)

    def forward(self, inputs, device):
        return (F.concat(inputs, self.axis),)

    def forward_expected(self, inputs):
        # Place every input at its running offset along the axis by hand.
        axis = self.axis % inputs[0].ndim
        total = sum(x.shape[axis] for x in inputs)
        shape = list(inputs[0].shape)
        shape[axis] = total
        y = numpy.empty(shape, self.dtype)
        start = 0
        for x in inputs:
            index = [slice(None)] * len(shape)
            index[axis] = slice(start, start + x.shape[axis])
            y[tuple(index)] = x
            start += x.shape[axis]
        return (y,)


def test_default_axis_is_one():
    a = numpy.zeros((2, 1), numpy.float32)
    b = numpy.ones((2, 2), numpy.float32)
    assert F.concat((a, b)).shape == (2, 3)


def test_gradient_is_split_back_to_each_input():
    xs = [chainer.Variable(numpy.zeros((2, n), numpy.float32)) for n in (1, 2, 3)]
    y = F.concat(xs, axis=1)
    grad = numpy.arange(12, dtype=numpy.float32).reshape(2, 6)
    y.grad = grad
    y.backward()
    numpy.testing.assert_array_equal(xs[0].grad, grad[:, :1])
    numpy.testing.assert_array_equal(xs[1].grad, grad[:, 1:3])
    numpy.testing.assert_array_equal(xs[2].grad, grad[:, 3:])


def test_dtype_mismatch_is_rejected():
    a = numpy.zeros((2, 1), numpy.float32)
    b = numpy.zeros((2, 1), numpy.float64)
    with pytest.raises(type_check.InvalidType, match=r"xs\[0\]\.dtype == xs\[1\]\.dtype"):
        F.concat((a, b))


def test_shape_mismatch_is_rejected():
    a = numpy.zeros((2, 1), numpy.float32)
    b = numpy.zeros((3, 1), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"except on axis 1"):
        F.concat((a, b), axis=1)


def test_ndim_mismatch_is_rejected():
    a = numpy.zeros((2, 1), numpy.float32)
    b = numpy.zeros((2, 1, 1), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"xs\[1\]\.shape=\(2, 1, 1\)"):
        F.concat((a, b), axis=1)


def test_axis_out_of_range_is_rejected():
    a = numpy.zeros((2, 1), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"(?s)-2 <= axis < 2.*axis=2"):
        F.concat((a, a), axis=2)


def test_no_inputs_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"in_types.size\(\) > 0"):
        F.concat(())


def test_non_int_axis_is_rejected():
    with pytest.raises(TypeError, match="axis must be an int, got float"):
        Concat(1.0)
