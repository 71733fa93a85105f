"""sigmoid: the logistic function, its SigmoidGrad, stability at large |x|."""

import warnings

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.activation.sigmoid import Sigmoid, SigmoidGrad
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16


@testing.parameterize(*testing.product({"shape": [(3, 2), (), (0, 3)], "dtype": FLOAT_DTYPES}))
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSigmoid(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.sigmoid(inputs[0]),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return (numpy.asarray(1 / (1 + numpy.exp(-x)), self.dtype),)


def test_sigmoid_saturates_without_overflow_warnings():
    x = numpy.array([-1000.0, 0.0, 1000.0], numpy.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = F.sigmoid(x)
    numpy.testing.assert_array_equal(y.array, [0.0, 0.5, 1.0])


def test_sigmoid_keeps_its_output_for_backward():
    x = chainer.Variable(numpy.array([0.5], numpy.float32))
    y = F.sigmoid(x)
    assert isinstance(y.creator_node, Sigmoid)
    gy = chainer.Variable(numpy.ones(1, numpy.float32))
    (gx,) = chainer.grad([y], [x], [gy], enable_double_backprop=True)
    assert isinstance(gx.creator_node, SigmoidGrad)
    s = 1 / (1 + numpy.exp(-0.5))
    numpy.testing.assert_allclose(gx.array, [s * (1 - s)], rtol=1e-6)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_sigmoid_gradient_of_a_0d_input_keeps_its_dtype(dtype):
    # NumPy 1 computes 1 - y of a 0-d float16/float32 y in float64.
    x = chainer.Variable(numpy.array(0.3, dtype))
    y = F.sigmoid(x)
    (gx,) = chainer.grad([y], [x], [chainer.Variable(numpy.array(1.0, dtype))])
    assert gx.dtype == dtype
    s = 1 / (1 + numpy.exp(-0.3))
    numpy.testing.assert_allclose(gx.array, s * (1 - s), rtol=1e-3)


def test_sigmoid_rejects_integer_input():
    with pytest.raises(type_check.InvalidType, match=r"Sigmoid[\s\S]*x\.dtype\.kind == f"):
        F.sigmoid(numpy.arange(3))
