"""softplus: log(1 + exp(beta x)) / beta, gradients, stability, bad beta."""

import warnings

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16


@testing.parameterize(
    *testing.product({"shape": [(3, 2), (), (0, 2)], "beta": [1.0, 2.5], "dtype": FLOAT_DTYPES})
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSoftplus(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.softplus(inputs[0], beta=self.beta),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return (numpy.asarray(numpy.log1p(numpy.exp(self.beta * x)) / self.beta, self.dtype),)


def test_softplus_is_stable_for_large_inputs():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = F.softplus(numpy.array([-1000.0, 1000.0], numpy.float32))
    numpy.testing.assert_allclose(y.array, [0.0, 1000.0])


def test_softplus_rejects_zero_beta():
    with pytest.raises(ValueError, match=r"beta must be nonzero.*got 0"):
        F.softplus(numpy.zeros(2, numpy.float32), beta=0)


def test_softplus_rejects_integer_input():
    with pytest.raises(type_check.InvalidType, match=r"Softplus[\s\S]*x\.dtype\.kind == f"):
        F.softplus(numpy.zeros(2, numpy.int32))
