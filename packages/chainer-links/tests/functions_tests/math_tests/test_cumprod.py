"""cumprod, including inputs with zeros."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _cumprod_by_loop(x, axis):
    y = numpy.empty_like(x)
    running = numpy.ones(x.shape[:axis] + x.shape[axis + 1 :], x.dtype)
    for i in range(x.shape[axis]):
        running = running * numpy.take(x, i, axis=axis)
        y[(slice(None),) * axis + (i,)] = running
    return y


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "case": [((3, 4), 1), ((3, 4), 0), ((2, 3, 4), -1), ((3, 4), None), ((), None)],
            "zeros": [False, True],
        }
    )
)
@testing.inject_backend_tests(None, [{}])
class TestCumprod(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.axis = self.case
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 5e-3, "rtol": 5e-3}
            self.check_backward_options = {"atol": 1e-2, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 1e-2, "rtol": 5e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(0.5, 1.5, self.shape) * numpy.random.choice([-1, 1], self.shape)
        if self.zeros and x.size > 1:
            # One slice with a single zero, one with two: both gradient branches.
            flat = x.reshape(-1)
            flat[[1, 5, 6]] = 0
        return (numpy.asarray(x, dtype=self.dtype),)

    def forward(self, inputs, device):
        return (F.cumprod(inputs[0], self.axis),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        if self.axis is None:
            return (_cumprod_by_loop(x.ravel(), 0).astype(self.dtype),)
        return (_cumprod_by_loop(x, self.axis % x.ndim).astype(self.dtype),)


def test_gradient_at_zeros_by_hand():
    x = chainer.Variable(numpy.array([2.0, 0.0, 3.0, 0.0, 5.0]))
    F.sum(F.cumprod(x, 0)).backward()
    # d/dx_j of sum_i prod_{k<=i} x_k: 1 + x1 + ... for x0; x0 + x0 x2 + ... for x1; 0 after.
    numpy.testing.assert_allclose(x.grad, [1.0, 2.0 + 2.0 * 3.0, 0.0, 0.0, 0.0])


def test_bad_axis_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"x\.ndim > -3 - 1|x\.ndim > 2"):
        F.cumprod(numpy.ones((2, 3)), -3)
    with pytest.raises(TypeError, match=r"None or an int, got 1\.0"):
        F.cumprod(numpy.ones((2, 3)), 1.0)
