"""cumsum."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "case": [((3, 4), 1), ((3, 4), 0), ((2, 3, 4), -2), ((3, 4), None), ((), None)],
        }
    )
)
@testing.inject_backend_tests(None, [{}])
class TestCumsum(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.axis = self.case
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 5e-3, "rtol": 5e-3}
            self.check_backward_options = {"atol": 1e-2, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 1e-2, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.cumsum(inputs[0], self.axis),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        if self.axis is None:
            x = x.ravel()
        axis = 0 if self.axis is None else self.axis % x.ndim
        y = numpy.zeros_like(x)
        running = numpy.zeros(x.shape[:axis] + x.shape[axis + 1 :])
        for i in range(x.shape[axis]):
            running = running + numpy.take(x, i, axis=axis)
            index = (slice(None),) * axis + (i,)
            y[index] = running
        return (y.astype(self.dtype),)


def test_bad_axis_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"x\.ndim > 2"):
        F.cumsum(numpy.ones((2, 3)), 2)
    with pytest.raises(TypeError, match=r"None or an int, got \(0,\)"):
        F.cumsum(numpy.ones((2, 3)), (0,))
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.cumsum(numpy.ones(3, numpy.int32))
