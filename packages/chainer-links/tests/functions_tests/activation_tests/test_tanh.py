"""tanh: values, TanhGrad (first and second order), dtype errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.activation.tanh import TanhGrad
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16


@testing.parameterize(*testing.product({"shape": [(3, 2), (), (0, 3)], "dtype": FLOAT_DTYPES}))
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestTanh(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.tanh(inputs[0]),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        e = numpy.exp(2 * x)
        return (numpy.asarray((e - 1) / (e + 1), self.dtype),)


def test_tanh_backward_uses_tanh_grad():
    x = chainer.Variable(numpy.array([0.3, -1.2], numpy.float64))
    y = F.tanh(x)
    gy = chainer.Variable(numpy.array([1.0, 2.0]))
    (gx,) = chainer.grad([y], [x], [gy], enable_double_backprop=True)
    assert isinstance(gx.creator_node, TanhGrad)
    numpy.testing.assert_allclose(gx.array, [1.0, 2.0] / numpy.cosh([0.3, -1.2]) ** 2)


def test_tanh_rejects_integer_input():
    with pytest.raises(type_check.InvalidType, match=r"Tanh[\s\S]*x\.dtype\.kind == f"):
        F.tanh(numpy.arange(3))
