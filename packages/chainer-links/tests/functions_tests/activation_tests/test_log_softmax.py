"""log_softmax along an axis: values, gradients, stability, axis and dtype errors."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16


def _log_softmax(x, axis):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - numpy.log(numpy.exp(shifted).sum(axis=axis, keepdims=True))


@testing.parameterize(
    *testing.product(
        {
            "shape_axis": [((3, 4), 1), ((2, 3, 4), 0), ((2, 3, 4), -1), ((5,), 0)],
            "dtype": FLOAT_DTYPES,
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestLogSoftmax(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.axis = self.shape_axis
        loosen_for_float16(self, forward={"atol": 5e-3, "rtol": 5e-3})

    def generate_inputs(self):
        return (numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.log_softmax(inputs[0], axis=self.axis),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return (_log_softmax(x, self.axis).astype(self.dtype),)


@testing.parameterize({"shape": (0, 3)}, {"shape": (3, 0)})
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestLogSoftmaxEmpty(testing.FunctionTestCase):
    def generate_inputs(self):
        return (numpy.zeros(self.shape, numpy.float32),)

    def forward(self, inputs, device):
        return (F.log_softmax(inputs[0]),)

    def forward_expected(self, inputs):
        return (numpy.zeros(self.shape, numpy.float32),)


def test_log_softmax_is_finite_where_softmax_underflows():
    y = F.log_softmax(numpy.array([[0.0, -1000.0]], numpy.float32))
    numpy.testing.assert_allclose(y.array, [[0.0, -1000.0]])


def test_log_softmax_rejects_axis_out_of_range():
    with pytest.raises(type_check.InvalidType, match=r"LogSoftmax[\s\S]*axis == 3, x.ndim == 3"):
        F.log_softmax(numpy.zeros((2, 3, 4), numpy.float32), axis=3)


def test_log_softmax_rejects_0d_and_integer_inputs():
    with pytest.raises(type_check.InvalidType, match=r"axis == 1, x.ndim == 0"):
        F.log_softmax(numpy.array(1.0, numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.log_softmax(numpy.zeros((2, 3), numpy.int32))
