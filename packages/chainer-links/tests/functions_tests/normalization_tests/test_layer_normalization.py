"""layer_normalization: values per row, gradients and shape errors."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from .conftest import FLOAT_DTYPES, loosen_for_float16, normalize_reference


@testing.parameterize(*testing.product({"shape": [(3, 4), (1, 5), (4, 2)], "dtype": FLOAT_DTYPES}))
@testing.inject_backend_tests(None, [{}])
class TestLayerNormalization(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        units = self.shape[1]
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(0.5, 1.5, units).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, units).astype(self.dtype)
        return x, gamma, beta

    def forward(self, inputs, device):
        return (F.layer_normalization(*inputs, eps=1e-3),)

    def forward_expected(self, inputs):
        x, gamma, beta = inputs
        y = normalize_reference(x, (1,), 1e-3) * gamma + beta
        return (y.astype(self.dtype),)


def test_layer_normalization_rejects_non_matrices():
    p = numpy.ones(3, numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"x\.ndim == 2"):
        F.layer_normalization(numpy.zeros((2, 3, 1), numpy.float32), p, p)


def test_layer_normalization_rejects_parameters_of_another_size():
    p = numpy.ones(3, numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"beta\.shape == \(4,\)"):
        F.layer_normalization(numpy.zeros((2, 4), numpy.float32), numpy.ones(4, numpy.float32), p)
