"""batch_l2_norm_squared."""

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
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "shape": [(4, 3), (2, 3, 4), (3, 0), (0, 2)],
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestBatchL2NormSquared(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 5e-3, "rtol": 5e-3}
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.batch_l2_norm_squared(inputs[0]),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        y = numpy.array([(sample**2).sum() for sample in x]).reshape(len(x))
        return (y.astype(self.dtype),)


def test_bad_inputs_are_rejected():
    with pytest.raises(type_check.InvalidType, match=r"x\.ndim >= 2"):
        F.batch_l2_norm_squared(numpy.ones(3))
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.batch_l2_norm_squared(numpy.ones((2, 3), numpy.int32))
