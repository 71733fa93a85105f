"""logsumexp."""

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
            "case": [((3, 4), None), ((3, 4), 1), ((2, 3, 4), (0, 2)), ((2, 3), -1), ((), None)],
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestLogSumExp(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.axis = self.case
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 5e-3, "rtol": 5e-3}
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.logsumexp(inputs[0], self.axis),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return (numpy.asarray(numpy.log(numpy.exp(x).sum(axis=self.axis)), dtype=self.dtype),)


def test_large_inputs_do_not_overflow():
    y = F.logsumexp(numpy.array([[1000.0, 1000.0], [-1000.0, -1000.0]]), axis=1)
    numpy.testing.assert_allclose(y.array, [1000 + numpy.log(2), -1000 + numpy.log(2)])


def test_bad_inputs_are_rejected():
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.logsumexp(numpy.ones(3, numpy.int32))
    with pytest.raises(type_check.InvalidType, match=r"x\.ndim > 1"):
        F.logsumexp(numpy.ones(3), axis=1)
