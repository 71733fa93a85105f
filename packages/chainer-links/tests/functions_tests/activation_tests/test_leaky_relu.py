"""leaky_relu: x or slope * x, for positive and negative slopes."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16, uniform_away_from_kinks


@testing.parameterize(
    *testing.product(
        {"shape": [(3, 2), (), (0, 2)], "slope": [0.2, -0.3, 0.0], "dtype": FLOAT_DTYPES}
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestLeakyReLU(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        return (uniform_away_from_kinks(-1, 1, self.shape, self.dtype),)

    def forward(self, inputs, device):
        return (F.leaky_relu(inputs[0], slope=self.slope),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return (numpy.asarray(numpy.where(x >= 0, x, self.slope * x), self.dtype),)


def test_leaky_relu_default_slope():
    y = F.leaky_relu(numpy.array([-1.0, 1.0], numpy.float32))
    numpy.testing.assert_allclose(y.array, [-0.2, 1.0])


def test_leaky_relu_rejects_integer_input():
    with pytest.raises(type_check.InvalidType, match=r"LeakyReLU[\s\S]*x\.dtype\.kind == f"):
        F.leaky_relu(numpy.zeros(2, numpy.int32))
