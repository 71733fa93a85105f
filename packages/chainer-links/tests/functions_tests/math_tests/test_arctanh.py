"""arctanh."""

import unittest

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _inside_unit_interval(shape, dtype):
    # Away from +-1, where arctanh diverges.
    return tuple(numpy.random.uniform(-0.9, 0.9, shape).astype(dtype) for _ in range(3))


@testing.fix_random()
@testing.unary_math_function_unittest(F.arctanh, make_data=_inside_unit_interval)
class TestArctanh(unittest.TestCase):
    pass


def test_zero_size_and_integer_input():
    assert F.arctanh(numpy.zeros((0,), numpy.float32)).shape == (0,)
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.arctanh(numpy.zeros(3, numpy.int32))
