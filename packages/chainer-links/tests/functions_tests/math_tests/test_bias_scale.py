"""bias and scale: a second operand broadcast along chosen axes."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "function": ["bias", "scale"],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "case": [((2, 3, 4), (3,), 1), ((2, 3, 4), (3, 4), 1), ((2, 3), (2, 3), 0)],
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestBiasScale(testing.FunctionTestCase):
    def setUp(self):
        self.x_shape, self.y_shape, self.axis = self.case
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 1e-3, "rtol": 1e-3}
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        y = numpy.random.uniform(-1, 1, self.y_shape).astype(self.dtype)
        return x, y

    def forward(self, inputs, device):
        return (getattr(F, self.function)(*inputs, axis=self.axis),)

    def forward_expected(self, inputs):
        x, y = inputs
        expected = numpy.empty_like(x)
        # Loop over x's positions: each combines with y at its axes axis..axis+y.ndim.
        for index in numpy.ndindex(x.shape):
            y_value = y[index[self.axis : self.axis + y.ndim]]
            expected[index] = x[index] + y_value if self.function == "bias" else x[index] * y_value
        return (expected,)


@pytest.mark.parametrize("function", ["bias", "scale"])
def test_misaligned_second_operand_is_rejected(function):
    with pytest.raises(type_check.InvalidType, match=r"x\.shape=\(2, 3, 4\), y\.shape=\(4,\)"):
        getattr(F, function)(numpy.ones((2, 3, 4)), numpy.ones(4))
    with pytest.raises(type_check.InvalidType, match=r"axis=3"):
        getattr(F, function)(numpy.ones((2, 3, 4)), numpy.ones(4), axis=3)
