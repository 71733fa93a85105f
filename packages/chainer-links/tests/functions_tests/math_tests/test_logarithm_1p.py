"""log1p."""

import unittest

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _above_minus_half(shape, dtype):
    x = numpy.random.uniform(-0.5, 1, shape).astype(dtype)
    gy, ggx = (numpy.random.uniform(-1, 1, shape).astype(dtype) for _ in range(2))
    return x, gy, ggx


@testing.fix_random()
@testing.unary_math_function_unittest(F.log1p, make_data=_above_minus_half)
class TestLog1p(unittest.TestCase):
    pass


def test_log1p_is_accurate_near_zero():
    numpy.testing.assert_allclose(F.log1p(numpy.array([1e-10])).array, [1e-10], rtol=1e-9)


def test_integer_input_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.log1p(numpy.ones(3, numpy.int32))
