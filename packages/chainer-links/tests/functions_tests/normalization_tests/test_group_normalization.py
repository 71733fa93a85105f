"""group_normalization: values per sample and group, gradients and argument errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check, testing
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
                ((3, 6), 2),  # no spatial axis: groups of channels only, as in Chainer
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
    with pytest.raises(ValueError, match=r"Input dimension must be at least 2.*\(4,\)"):
        F.group_normalization(numpy.zeros(4, numpy.float32), 2, _P, _P)


@testing.fix_random()
def test_group_normalization_casts_parameters_of_another_dtype():
    # mixed16: a float16 input with float32 gamma/beta gives float16; each gradient keeps its
    # input's dtype.
    x = numpy.random.uniform(-1, 1, (2, 4, 3)).astype(numpy.float16)
    gamma = numpy.random.uniform(0.5, 1.5, 4).astype(numpy.float32)
    beta = numpy.random.uniform(-1, 1, 4).astype(numpy.float32)
    y = F.group_normalization(x, 2, gamma, beta)
    assert y.dtype == numpy.float16
    testing.assert_allclose(y.array, _reference(x, 2, gamma, beta, 1e-5), atol=1e-2, rtol=1e-2)

    def f(x, gamma, beta):
        return F.group_normalization(x, 2, gamma, beta)

    gy = numpy.random.uniform(-1, 1, x.shape).astype(numpy.float16)
    gradient_check.check_backward(
        f, (x, gamma, beta), gy, dtype=numpy.float64, atol=5e-2, rtol=5e-2
    )
    variables = [chainer.Variable(a) for a in (x, gamma, beta)]
    F.sum(f(*variables)).backward()
    assert [v.grad.dtype for v in variables] == [numpy.float16, numpy.float32, numpy.float32]


def test_group_normalization_rejects_groups_not_dividing_channels():
    with pytest.raises(ValueError, match=r"must be a divisor of the number of channel 4, got 3"):
        F.group_normalization(numpy.zeros((2, 4, 3), numpy.float32), 3, _P, _P)


def test_group_normalization_rejects_non_int_groups():
    with pytest.raises(TypeError, match=r"'groups' type must be \(int\), got float"):
        F.group_normalization(numpy.zeros((2, 4, 3), numpy.float32), 2.0, _P, _P)


def test_group_normalization_rejects_gamma_of_another_shape():
    with pytest.raises(type_check.InvalidType, match=r"gamma\.shape == \(4,\)"):
        F.group_normalization(numpy.zeros((2, 4, 3), numpy.float32), 2, _P[:3], _P)
