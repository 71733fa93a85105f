"""normalize (L2 normalization): values along axes, zero vectors, gradients and errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16


@testing.parameterize(
    *testing.product(
        {
            "shape_axis": [((3, 4), 1), ((2, 3, 2), 0), ((2, 3, 2), (1, 2)), ((4,), -1)],
            "eps": [1e-5, 0.5],
            "dtype": FLOAT_DTYPES,
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestNormalize(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.axis = self.shape_axis
        loosen_for_float16(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.normalize(inputs[0], eps=self.eps, axis=self.axis),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        norm = numpy.sqrt((x * x).sum(axis=self.axis, keepdims=True))
        return ((x / (norm + self.eps)).astype(self.dtype),)


def test_normalize_gradient_of_a_zero_vector_is_gy_over_eps():
    # The norm has a kink at zero, so this is checked exactly instead of numerically.
    x = chainer.Variable(numpy.zeros((1, 3)))
    y = F.normalize(x, eps=0.25)
    y.grad = numpy.array([[1.0, -2.0, 3.0]])
    y.backward()
    numpy.testing.assert_allclose(x.grad, [[4.0, -8.0, 12.0]])


def test_normalize_rejects_axis_out_of_range():
    with pytest.raises(type_check.InvalidType, match=r"NormalizeL2[\s\S]*x\.ndim > 2"):
        F.normalize(numpy.zeros((2, 3), numpy.float32), axis=2)


def test_normalize_rejects_integer_input():
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.normalize(numpy.zeros((2, 3), numpy.int32))


def test_normalize_second_derivatives_of_a_zero_vector_are_finite():
    x = chainer.Variable(numpy.array([[0.0, 0.0], [3.0, 4.0]]))
    y = F.normalize(x)
    (gx,) = chainer.grad([F.sum(y * y)], [x], enable_double_backprop=True)
    (ggx,) = chainer.grad([F.sum(gx * gx)], [x])
    assert numpy.isfinite(gx.array).all() and numpy.isfinite(ggx.array).all()


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_normalize_of_a_0d_input_over_no_axes_is_a_0d_array(dtype):
    x = numpy.asarray(-3.0, dtype)
    y = F.normalize(x, eps=1e-5, axis=())
    assert type(y.array) is numpy.ndarray and y.shape == () and y.dtype == dtype
    numpy.testing.assert_allclose(y.array, -3.0 / (3.0 + 1e-5), rtol=1e-3)
