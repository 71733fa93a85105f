"""square."""

import unittest

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.fix_random()
@testing.unary_math_function_unittest(F.square)
class TestSquare(unittest.TestCase):
    pass


def test_zero_size_and_integer_input():
    assert F.square(numpy.ones((0, 1), numpy.float32)).shape == (0, 1)
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.square(numpy.ones(3, numpy.int32))
