"""sinh and cosh."""

import unittest

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.fix_random()
@testing.unary_math_function_unittest(F.sinh)
class TestSinh(unittest.TestCase):
    pass


@testing.fix_random()
@testing.unary_math_function_unittest(F.cosh)
class TestCosh(unittest.TestCase):
    pass


@pytest.mark.parametrize("name", ["sinh", "cosh"])
def test_zero_size_and_integer_input(name):
    assert getattr(F, name)(numpy.zeros((2, 0), numpy.float64)).shape == (2, 0)
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        getattr(F, name)(numpy.zeros(3, numpy.int64))
