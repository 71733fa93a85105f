"""prelu: learned negative slopes broadcast over channels; gradients of x and W."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16, uniform_away_from_kinks


@testing.parameterize(
    *testing.product(
        {
            "shapes": [((4, 3), (3,)), ((2, 3, 4), (3,)), ((2, 3, 4), (3, 4)), ((3, 2), ())],
            "dtype": FLOAT_DTYPES,
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestPReLU(testing.FunctionTestCase):
    def setUp(self):
        self.x_shape, self.w_shape = self.shapes
        loosen_for_float16(self)

    def generate_inputs(self):
        x = uniform_away_from_kinks(-1, 1, self.x_shape, self.dtype)
        W = numpy.random.uniform(-1, 1, self.w_shape).astype(self.dtype)
        return x, W

    def forward(self, inputs, device):
        return (F.prelu(*inputs),)

    def forward_expected(self, inputs):
        x, W = inputs
        y = x.astype(numpy.float64).copy()
        for index in numpy.ndindex(*x.shape):
            if x[index] < 0:
                y[index] *= W[index[1 : 1 + W.ndim]]
        return (y.astype(self.dtype),)


def test_prelu_rejects_mismatched_slope_shape():
    message = r"PReLU[\s\S]*x\.shape\[1:2\] == W\.shape\nActual: \(3,\) != \(4,\)"
    with pytest.raises(type_check.InvalidType, match=message):
        F.prelu(numpy.zeros((2, 3), numpy.float32), numpy.zeros((4,), numpy.float32))


def test_prelu_rejects_mismatched_dtype():
    with pytest.raises(type_check.InvalidType, match=r"W\.dtype == x\.dtype"):
        F.prelu(numpy.zeros((2, 3), numpy.float32), numpy.zeros((3,), numpy.float64))
