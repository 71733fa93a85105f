"""maxout: max over groups of pool_size channels, gradients to the winners, bad arguments."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from .conftest import FLOAT_DTYPES, loosen_for_float16


def _distinct_values(shape, dtype):
    # Well-separated values: no ties, and finite differences never change the winner.
    size = int(numpy.prod(shape))
    values = numpy.random.permutation(size).astype(numpy.float64) * 0.1 - 0.05 * size
    return values.reshape(shape).astype(dtype)


@testing.parameterize(
    *testing.product(
        {
            "case": [
                ((2, 6), 3, 1),
                ((2, 4, 3), 2, 1),
                ((4, 3), 2, 0),
                ((2, 3, 4), 4, -1),
                ((6,), 6, 0),
                ((0, 4), 2, 1),
            ],
            "dtype": FLOAT_DTYPES,
        }
    )
)
@testing.inject_backend_tests(None, [{}])
class TestMaxout(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.pool_size, self.axis = self.case
        loosen_for_float16(self)

    def generate_inputs(self):
        return (_distinct_values(self.shape, self.dtype),)

    def forward(self, inputs, device):
        return (F.maxout(inputs[0], self.pool_size, axis=self.axis),)

    def forward_expected(self, inputs):
        x = numpy.moveaxis(inputs[0], self.axis, -1)
        groups = x.shape[-1] // self.pool_size
        out = numpy.empty(x.shape[:-1] + (groups,), self.dtype)
        for g in range(groups):
            out[..., g] = x[..., g * self.pool_size : (g + 1) * self.pool_size].max(axis=-1)
        return (numpy.moveaxis(out, -1, self.axis),)


def test_maxout_rejects_non_positive_pool_size():
    with pytest.raises(ValueError, match=r"pool_size must be a positive integer, got 0"):
        F.maxout(numpy.zeros((2, 4), numpy.float32), 0)


def test_maxout_rejects_indivisible_axis():
    with pytest.raises(type_check.InvalidType, match=r"x\.shape\[1\] == 5, pool_size == 2"):
        F.maxout(numpy.zeros((2, 5), numpy.float32), 2)


def test_maxout_rejects_bad_axis_and_types():
    x = numpy.zeros((2, 4), numpy.float32)
    with pytest.raises(ValueError, match=r"axis 2 is out of range for an input of 2 dimensions"):
        F.maxout(x, 2, axis=2)
    with pytest.raises(TypeError, match=r"pool_size must be an int, got float"):
        F.maxout(x, 2.0)
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.maxout(numpy.zeros((2, 4), numpy.int32), 2)
