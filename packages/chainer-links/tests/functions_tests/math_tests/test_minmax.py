"""max, min, argmax and argmin."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


def _distinct(shape, dtype):
    # Well-separated values: no ties, and finite differences never swap the extremum.
    size = int(numpy.prod(shape))
    values = numpy.random.permutation(size).reshape(shape) * 0.1 - size * 0.05
    return numpy.asarray(values, dtype=dtype)


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "function": ["max", "min"],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "case": [
                ((3, 4), None, False),
                ((3, 4), 1, False),
                ((2, 3, 4), (0, 2), True),
                ((2, 3, 4), -1, True),
                ((), None, False),
            ],
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestMaxMin(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.axis, self.keepdims = self.case
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (_distinct(self.shape, self.dtype),)

    def forward(self, inputs, device):
        return (getattr(F, self.function)(inputs[0], self.axis, self.keepdims),)

    def forward_expected(self, inputs):
        reduce = numpy.amax if self.function == "max" else numpy.amin
        y = reduce(inputs[0], axis=self.axis, keepdims=self.keepdims)
        return (numpy.asarray(y, dtype=self.dtype),)


@pytest.mark.parametrize("function", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_index_of_extremum(function, axis):
    x = _distinct((3, 4), numpy.float32)
    y = getattr(F, function)(chainer.Variable(x), axis)
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, getattr(numpy, function)(x, axis=axis))


def test_max_gradient_goes_to_every_tie():
    x = chainer.Variable(numpy.array([[1.0, 3.0, 3.0], [2.0, 0.0, 1.0]]))
    F.sum(F.max(x, axis=1)).backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 1, 1], [1, 0, 0]])


@pytest.mark.parametrize("function", ["max", "min", "argmax", "argmin"])
def test_bad_inputs_are_rejected(function):
    f = getattr(F, function)
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        f(numpy.ones((2, 3), numpy.int32))
    with pytest.raises(type_check.InvalidType, match=r"x\.ndim > 2"):
        f(numpy.ones((2, 3), numpy.float32), 2)
    with pytest.raises(TypeError, match=r"got 'a'"):
        f(numpy.ones((2, 3), numpy.float32), "a")


def test_max_rejects_repeated_axes():
    with pytest.raises(ValueError, match=r"duplicate value in axis: \(0, 0\)"):
        F.max(numpy.ones((2, 3)), axis=(0, 0))
