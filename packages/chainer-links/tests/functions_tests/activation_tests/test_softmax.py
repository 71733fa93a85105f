"""softmax along an axis: values, gradients, empty inputs, axis and dtype errors."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16


def _softmax(x, axis):
    e = numpy.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@testing.parameterize(
    *testing.product(
        {
            "shape_axis": [((3, 4), 1), ((2, 3, 4), 0), ((2, 3, 4), -1), ((5,), 0)],
            "dtype": FLOAT_DTYPES,
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSoftmax(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.axis = self.shape_axis
        loosen_for_float16(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.softmax(inputs[0], axis=self.axis),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return (_softmax(x, self.axis).astype(self.dtype),)


@testing.parameterize({"shape": (0, 3)}, {"shape": (3, 0)})
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSoftmaxEmpty(testing.FunctionTestCase):
    def generate_inputs(self):
        return (numpy.zeros(self.shape, numpy.float32),)

    def forward(self, inputs, device):
        return (F.softmax(inputs[0]),)

    def forward_expected(self, inputs):
        return (numpy.zeros(self.shape, numpy.float32),)


def test_softmax_is_stable_for_large_inputs():
    y = F.softmax(numpy.array([[1000.0, 1000.0, -1000.0]], numpy.float32))
    numpy.testing.assert_allclose(y.array, [[0.5, 0.5, 0.0]])


@pytest.mark.parametrize("axis", [2, -3])
def test_softmax_rejects_axis_out_of_range(axis):
    with pytest.raises(
        type_check.InvalidType, match=rf"Softmax[\s\S]*axis == {axis}, x.ndim == 2"
    ):
        F.softmax(numpy.zeros((2, 3), numpy.float32), axis=axis)


def test_softmax_rejects_integer_input():
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.softmax(numpy.zeros((2, 3), numpy.int64))
