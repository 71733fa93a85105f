"""clipped_relu and relu6: min(max(x, 0), z), gradients between the kinks, bad z."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16, uniform_away_from_kinks


@testing.parameterize(
    *testing.product({"shape": [(3, 4), (), (0, 2)], "z": [0.75, 3], "dtype": FLOAT_DTYPES})
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestClippedReLU(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        return (uniform_away_from_kinks(-1, 1, self.shape, self.dtype, kinks=(0, self.z)),)

    def forward(self, inputs, device):
        return (F.clipped_relu(inputs[0], self.z),)

    def forward_expected(self, inputs):
        (x,) = inputs
        y = numpy.where(x < 0, 0, numpy.where(x > self.z, self.z, x))
        return (numpy.asarray(y, self.dtype),)


@testing.parameterize(*testing.product({"dtype": FLOAT_DTYPES}))
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestReLU6(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        return (uniform_away_from_kinks(-3, 9, (4, 3), self.dtype, kinks=(0, 6)),)

    def forward(self, inputs, device):
        return (F.relu6(inputs[0]),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.asarray([[min(max(v, 0), 6) for v in row] for row in x], self.dtype),)


def test_clipped_relu_default_cap_is_20():
    y = F.clipped_relu(numpy.array([-5.0, 5.0, 50.0], numpy.float32))
    numpy.testing.assert_array_equal(y.array, [0.0, 5.0, 20.0])


@pytest.mark.parametrize("z", [0.0, -1.0])
def test_clipped_relu_rejects_non_positive_cap(z):
    with pytest.raises(ValueError, match=rf"z must be positive, got {z}"):
        F.clipped_relu(numpy.zeros(2, numpy.float32), z)


@pytest.mark.parametrize("z", ["6", None, True])
def test_clipped_relu_rejects_non_numeric_cap(z):
    with pytest.raises(TypeError, match=r"z must be a real number, got"):
        F.clipped_relu(numpy.zeros(2, numpy.float32), z)


def test_clipped_relu_rejects_integer_input():
    with pytest.raises(type_check.InvalidType, match=r"ClippedReLU[\s\S]*x\.dtype\.kind == f"):
        F.clipped_relu(numpy.zeros(2, numpy.int32))
