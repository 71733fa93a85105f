"""squared_error, squared_difference, absolute_error, mean_squared_error, mean_absolute_error."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16

_EXPECTED = {
    "squared_error": lambda d: d * d,
    "squared_difference": lambda d: d * d,
    "absolute_error": numpy.abs,
    "mean_squared_error": lambda d: numpy.asarray(numpy.mean(d * d)),
    "mean_absolute_error": lambda d: numpy.asarray(numpy.mean(numpy.abs(d))),
}


def _away_from_each_other(shape, dtype):
    """Pairs whose differences stay at least 0.1 from zero (the kink of the absolute value)."""
    x0 = numpy.random.uniform(-1, 1, shape)
    gap = numpy.random.uniform(0.1, 1, shape) * numpy.random.choice([-1, 1], shape)
    return numpy.asarray(x0, dtype), numpy.asarray(x0 + gap, dtype)


@testing.parameterize(
    *testing.product(
        {
            "name": sorted(_EXPECTED),
            "shape": [(3, 4), (), (2, 1, 3)],
            "dtype": FLOAT_DTYPES,
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestElementwiseErrors(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        return _away_from_each_other(self.shape, self.dtype)

    def forward(self, inputs, device):
        return (getattr(F, self.name)(*inputs),)

    def forward_expected(self, inputs):
        x0, x1 = inputs
        diff = x0.astype(numpy.float64) - x1.astype(numpy.float64)
        return (numpy.asarray(_EXPECTED[self.name](diff), self.dtype),)


@pytest.mark.parametrize("name", ["mean_squared_error", "mean_absolute_error"])
def test_mean_of_empty_arrays_is_nan_without_warning(name):
    x = chainer.Variable(numpy.zeros((0, 3), numpy.float32))
    loss = getattr(F, name)(x, numpy.zeros((0, 3), numpy.float32))
    assert numpy.isnan(loss.array) and loss.dtype == numpy.float32
    loss.backward()
    assert x.grad.shape == (0, 3)


def test_float16_mean_squared_error_does_not_overflow():
    x0 = numpy.full((100,), 100, numpy.float16)
    loss = F.mean_squared_error(x0, numpy.zeros_like(x0))
    assert loss.dtype == numpy.float16 and float(loss.array) == 10000


@pytest.mark.parametrize("name", sorted(_EXPECTED))
def test_mismatched_inputs_raise_invalid_type(name):
    func = getattr(F, name)
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"x0.shape == x1.shape"):
        func(x, numpy.zeros((3, 2), numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r"x0.dtype == x1.dtype"):
        func(x, numpy.zeros((2, 3), numpy.float64))
    with pytest.raises(type_check.InvalidType, match=r"x0.dtype.kind == f"):
        func(x.astype(numpy.int32), x.astype(numpy.int32))
