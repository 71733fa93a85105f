"""decov and cross_covariance: covariance matrices and their half squared sums."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16


def _covariance(a, b):
    a = a.astype(numpy.float64)
    b = b.astype(numpy.float64)
    n = len(a)
    c = numpy.zeros((a.shape[1], b.shape[1]))
    for i in range(a.shape[1]):
        for j in range(b.shape[1]):
            c[i, j] = numpy.sum((a[:, i] - a[:, i].mean()) * (b[:, j] - b[:, j].mean())) / n
    return c


@testing.parameterize(
    *testing.product(
        {
            "name": ["decov", "cross_covariance"],
            "dtype": FLOAT_DTYPES,
            "reduce": ["half_squared_sum", "no"],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestCovariancePenalties(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        if self.name == "decov":
            return (numpy.random.uniform(-1, 1, (5, 3)).astype(self.dtype),)
        y = numpy.random.uniform(-1, 1, (5, 3)).astype(self.dtype)
        return y, numpy.random.uniform(-1, 1, (5, 2)).astype(self.dtype)

    def forward(self, inputs, device):
        return (getattr(F, self.name)(*inputs, reduce=self.reduce),)

    def forward_expected(self, inputs):
        if self.name == "decov":
            c = _covariance(inputs[0], inputs[0])
            numpy.fill_diagonal(c, 0)
        else:
            c = _covariance(*inputs)
        if self.reduce == "half_squared_sum":
            c = numpy.asarray(0.5 * (c**2).sum())
        return (c.astype(self.dtype),)


def test_bad_arguments_raise():
    h = numpy.zeros((3, 2), numpy.float32)
    with pytest.raises(ValueError, match="only 'half_squared_sum' and 'no' are valid"):
        F.decov(h, reduce="mean")
    with pytest.raises(ValueError, match="but 'sum' is given"):
        F.cross_covariance(h, h, reduce="sum")
    with pytest.raises(type_check.InvalidType, match=r"DeCov[\s\S]*h.ndim == 2"):
        F.decov(h[0])
    with pytest.raises(type_check.InvalidType, match=r"y.shape\[0\] == z.shape\[0\]"):
        F.cross_covariance(h, numpy.zeros((4, 2), numpy.float32))
