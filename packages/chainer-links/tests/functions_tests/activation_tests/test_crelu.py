"""crelu: concat(relu(x), relu(-x)) along an axis, gradients, axis errors."""

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
            "shape_axis": [((2, 3), 1), ((2, 3, 2), 0), ((2, 3, 2), -1), ((4,), 0), ((0, 3), 1)],
            "dtype": FLOAT_DTYPES,
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestCReLU(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.axis = self.shape_axis
        loosen_for_float16(self)

    def generate_inputs(self):
        return (uniform_away_from_kinks(-1, 1, self.shape, self.dtype),)

    def forward(self, inputs, device):
        return (F.crelu(inputs[0], axis=self.axis),)

    def forward_expected(self, inputs):
        (x,) = inputs
        positive = numpy.where(x > 0, x, 0)
        negative = numpy.where(x < 0, -x, 0)
        return (numpy.concatenate([positive, negative], axis=self.axis).astype(self.dtype),)


@pytest.mark.parametrize(
    ("axis", "expect"), [(2, r"Expect: x\.ndim > 2"), (-3, r"Expect: -x\.ndim <= -3")]
)
def test_crelu_rejects_axis_out_of_range(axis, expect):
    with pytest.raises(type_check.InvalidType, match=rf"CReLU[\s\S]*{expect}"):
        F.crelu(numpy.zeros((2, 3), numpy.float32), axis=axis)


def test_crelu_rejects_non_integer_axis():
    with pytest.raises(TypeError, match=r"axis must be an int, got float"):
        F.crelu(numpy.zeros((2, 3), numpy.float32), axis=1.0)


def test_crelu_rejects_integer_input():
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.crelu(numpy.zeros((2, 3), numpy.int32))
