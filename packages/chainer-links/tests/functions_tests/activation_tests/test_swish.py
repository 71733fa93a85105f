"""swish: x * sigmoid(beta * x) with beta broadcast over channels; gradients of x and beta."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16


@testing.parameterize(
    *testing.product(
        {
            "shapes": [((4, 3), (3,)), ((2, 3, 4), (3,)), ((2, 3, 4), (3, 4)), ((3, 2), ())],
            "dtype": FLOAT_DTYPES,
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSwish(testing.FunctionTestCase):
    def setUp(self):
        self.x_shape, self.beta_shape = self.shapes
        loosen_for_float16(self)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, self.beta_shape).astype(self.dtype)
        return x, beta

    def forward(self, inputs, device):
        return (F.swish(*inputs),)

    def forward_expected(self, inputs):
        x, beta = (a.astype(numpy.float64) for a in inputs)
        y = numpy.empty_like(x)
        for index in numpy.ndindex(*x.shape):
            b = beta[index[1 : 1 + beta.ndim]]
            y[index] = x[index] / (1 + numpy.exp(-b * x[index]))
        return (y.astype(self.dtype),)


def test_swish_rejects_mismatched_beta():
    with pytest.raises(type_check.InvalidType, match=r"Swish[\s\S]*beta\.shape"):
        F.swish(numpy.zeros((2, 3), numpy.float32), numpy.zeros((2,), numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r"x\.ndim >= beta\.ndim \+ 1"):
        F.swish(numpy.zeros((3,), numpy.float32), numpy.zeros((3,), numpy.float32))
