"""flatten: a reshape to one dimension; forward, gradients."""

import numpy

import chainer.functions as F
from chainer import testing

from ..backend_configs import CPU_AND_CHAINERX


@testing.parameterize(
    *testing.product(
        {
            "shape": [(2, 3), (2, 1, 2), (), (0, 3)],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestFlatten(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.flatten(inputs[0]),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.array([x[index] for index in numpy.ndindex(*x.shape)], self.dtype),)
