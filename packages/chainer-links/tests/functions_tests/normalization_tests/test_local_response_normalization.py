"""local_response_normalization: values over channel neighbourhoods, gradients, errors."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16


def _reference(x, n, k, alpha, beta):
    x = x.astype(numpy.float64)
    y = numpy.empty(x.shape)
    channels = x.shape[1]
    for i in range(channels):
        lo, hi = max(0, i - n // 2), min(channels, i + n // 2 + 1)
        total = (x[:, lo:hi] ** 2).sum(axis=1)
        y[:, i] = x[:, i] / (k + alpha * total) ** beta
    return y


@testing.parameterize(
    *testing.product(
        {
            "shape": [(2, 7, 3, 2), (1, 3), (2, 2, 3)],
            "params": [(5, 2, 1e-4, 0.75), (3, 1, 0.5, 1.0), (4, 1.5, 0.3, 0.5)],
            "dtype": FLOAT_DTYPES,
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestLocalResponseNormalization(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        n, k, alpha, beta = self.params
        return (F.local_response_normalization(inputs[0], n, k, alpha, beta),)

    def forward_expected(self, inputs):
        return (_reference(inputs[0], *self.params).astype(self.dtype),)


def test_local_response_normalization_rejects_non_positive_width():
    with pytest.raises(ValueError, match=r"n must be a positive int, got 0"):
        F.local_response_normalization(numpy.zeros((1, 3), numpy.float32), n=0)


def test_local_response_normalization_rejects_vectors():
    with pytest.raises(type_check.InvalidType, match=r"x\.ndim >= 2"):
        F.local_response_normalization(numpy.zeros(3, numpy.float32))
