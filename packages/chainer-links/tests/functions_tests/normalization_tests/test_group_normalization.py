"""group_normalization: values per sample and group, gradients and argument errors."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from .conftest import FLOAT_DTYPES, loosen_for_float16


def _reference(x, groups, gamma, beta, eps):
    n, c = x.shape[:2]
    y = numpy.empty(x.shape)
    size = c // groups
    for i in range(n):
        for g in range(groups):
            block = x[i, g * size : (g + 1) * size].astype(numpy.float64)
            y[i, g * size : (g + 1) * size] = (block - block.mean()) / numpy.sqrt(
                block.var() + eps
            )
    shape = (1, c) + (1,) * (x.ndim - 2)
    return y * gamma.reshape(shape) + beta.reshape(shape)


@testing.parameterize(
    *testing.product(
        {
            "shape_groups": [
                ((2, 4, 3), 2),
                ((1, 6, 2, 2), 3),
                ((3, 3, 2), 1),
                ((2, 4, 1, 3), 4),
                ((3, 8), 2),
            ],
            "dtype": FLOAT_DTYPES,
        }
    )
)
@testing.inject_backend_tests(None, [{}])
class TestGroupNormalization(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.groups = self.shape_groups
        loosen_for_float16(self)

    def generate_inputs(self):
        c = self.shape[1]
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(0.5, 1.5, c).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, c).astype(self.dtype)
        return x, gamma, beta

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        return (F.group_normalization(x, self.groups, gamma, beta, eps=1e-3),)

    def forward_expected(self, inputs):
        return (_reference(*inputs[:1], self.groups, *inputs[1:], 1e-3).astype(self.dtype),)


_P = numpy.ones(4, numpy.float32)


def test_group_normalization_rejects_vectors():
    with pytest.raises(ValueError, match=r"at least 2 dimensions .*got x\.shape == \(4,\)"):
        F.group_normalization(numpy.zeros(4, numpy.float32), 2, _P, _P)


def test_group_normalization_rejects_groups_not_dividing_channels():
    with pytest.raises(ValueError, match=r"must be a divisor of the number of channel 4, got 3"):
        F.group_normalization(numpy.zeros((2, 4, 3), numpy.float32), 3, _P, _P)


def test_group_normalization_rejects_non_int_groups():
    with pytest.raises(TypeError, match=r"'groups' type must be \(int\), got float"):
        F.group_normalization(numpy.zeros((2, 4, 3), numpy.float32), 2.0, _P, _P)


def test_group_normalization_rejects_gamma_of_another_shape():
    with pytest.raises(type_check.InvalidType, match=r"gamma\.shape == \(4,\)"):
        F.group_normalization(numpy.zeros((2, 4, 3), numpy.float32), 2, _P[:3], _P)
