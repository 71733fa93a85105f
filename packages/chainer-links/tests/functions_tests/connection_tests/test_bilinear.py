"""bilinear: e1^T W e2 (+ linear terms) against einsum, gradients, errors."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from .conftest import FLOAT_DTYPES, loosen_for_float16, uniform


@testing.parameterize(
    *testing.product(
        {
            "shapes": [((3, 2), (3, 4)), ((1, 2, 2), (1, 3))],
            "linear_terms": [True, False],
            "dtype": FLOAT_DTYPES,
        }
    )
)
@testing.inject_backend_tests(None, [{}])
class TestBilinear(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        e1_shape, e2_shape = self.shapes
        j, k = int(numpy.prod(e1_shape[1:])), int(numpy.prod(e2_shape[1:]))
        inputs = [uniform(e1_shape, self.dtype), uniform(e2_shape, self.dtype)]
        inputs.append(uniform((j, k, 2), self.dtype))
        if self.linear_terms:
            inputs += [uniform((j, 2), self.dtype), uniform((k, 2), self.dtype)]
            inputs.append(uniform((2,), self.dtype))
        return tuple(inputs)

    def forward(self, inputs, device):
        return (F.bilinear(*inputs),)

    def forward_expected(self, inputs):
        n = inputs[0].shape[0]
        e1, e2 = (a.astype(numpy.float64).reshape(n, -1) for a in inputs[:2])
        y = numpy.einsum("nj,nk,jkl->nl", e1, e2, inputs[2])
        if self.linear_terms:
            V1, V2, b = inputs[3:]
            y += e1 @ V1 + e2 @ V2 + b
        return (y.astype(self.dtype),)


def _arrays(*shapes):
    return [numpy.ones(shape, numpy.float32) for shape in shapes]


def test_partial_linear_terms_are_a_value_error():
    e1, e2, W, V1 = _arrays((2, 3), (2, 4), (3, 4, 5), (3, 5))
    with pytest.raises(ValueError, match="all be given or all be None, but V2, b is None"):
        F.bilinear(e1, e2, W, V1)


def test_batch_mismatch_is_an_invalid_type():
    e1, e2, W = _arrays((2, 3), (3, 4), (3, 4, 5))
    with pytest.raises(type_check.InvalidType, match=r"Bilinear[\s\S]*e1\.shape\[0\] == e2"):
        F.bilinear(e1, e2, W)


def test_weight_that_does_not_fit_the_inputs_is_an_invalid_type():
    e1, e2, W = _arrays((2, 3), (2, 4), (3, 5, 5))
    with pytest.raises(type_check.InvalidType, match=r"prod\(e2\.shape\[1:\]\) == W\.shape\[1\]"):
        F.bilinear(e1, e2, W)


def test_linear_weight_of_wrong_shape_is_an_invalid_type():
    e1, e2, W, V1, V2, b = _arrays((2, 3), (2, 4), (3, 4, 5), (3, 5), (5, 4), (5,))
    with pytest.raises(type_check.InvalidType, match=r"V2\.shape == \(4, 5\)"):
        F.bilinear(e1, e2, W, V1, V2, b)
