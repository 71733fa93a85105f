"""hard_sigmoid: clip(0.2 x + 0.5, 0, 1) and its gradient inside (-2.5, 2.5)."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16, uniform_away_from_kinks


@testing.parameterize(*testing.product({"shape": [(4, 3), (), (0, 2)], "dtype": FLOAT_DTYPES}))
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestHardSigmoid(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        return (uniform_away_from_kinks(-4, 4, self.shape, self.dtype, kinks=(-2.5, 2.5)),)

    def forward(self, inputs, device):
        return (F.hard_sigmoid(inputs[0]),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        y = numpy.where(x < -2.5, 0.0, numpy.where(x > 2.5, 1.0, 0.2 * x + 0.5))
        return (numpy.asarray(y, self.dtype),)


def test_hard_sigmoid_rejects_integer_input():
    with pytest.raises(type_check.InvalidType, match=r"HardSigmoid[\s\S]*x\.dtype\.kind == f"):
        F.hard_sigmoid(numpy.zeros(2, numpy.int32))
