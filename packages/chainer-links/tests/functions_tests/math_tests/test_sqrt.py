"""sqrt and rsqrt."""

import unittest

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _positive(shape, dtype):
    x = numpy.random.uniform(0.5, 2, shape).astype(dtype)
    gy, ggx = (numpy.random.uniform(-1, 1, shape).astype(dtype) for _ in range(2))
    return x, gy, ggx


def _reciprocal_sqrt(x, dtype):
    return numpy.asarray(1 / numpy.sqrt(x), dtype=dtype)


@testing.fix_random()
@testing.unary_math_function_unittest(F.sqrt, make_data=_positive)
class TestSqrt(unittest.TestCase):
    pass


@testing.fix_random()
@testing.unary_math_function_unittest(F.rsqrt, func_expected=_reciprocal_sqrt, make_data=_positive)
class TestRsqrt(unittest.TestCase):
    pass


def test_zero_size_and_integer_input():
    assert F.sqrt(numpy.ones((0, 1), numpy.float32)).shape == (0, 1)
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.sqrt(numpy.ones(3, numpy.int32))
