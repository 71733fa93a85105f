"""elu: x or alpha * (exp(x) - 1), first and second order gradients, no overflow."""

import warnings

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16, uniform_away_from_kinks


@testing.parameterize(
    *testing.product({"shape": [(3, 2), (), (0, 2)], "alpha": [1.0, 0.5], "dtype": FLOAT_DTYPES})
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestELU(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        return (uniform_away_from_kinks(-1, 1, self.shape, self.dtype),)

    def forward(self, inputs, device):
        return (F.elu(inputs[0], alpha=self.alpha),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        y = numpy.where(x > 0, x, self.alpha * (numpy.exp(x) - 1))
        return (numpy.asarray(y, self.dtype),)


def test_elu_large_inputs_do_not_overflow():
    x = numpy.array([-50.0, 50.0], numpy.float16)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = F.elu(x)
        y.grad = numpy.ones(2, numpy.float16)
        y.backward()
    numpy.testing.assert_array_equal(y.array, [-1.0, 50.0])


def test_elu_rejects_integer_input():
    with pytest.raises(type_check.InvalidType, match=r"ELU[\s\S]*x\.dtype\.kind == f"):
        F.elu(numpy.zeros(2, numpy.int32))
