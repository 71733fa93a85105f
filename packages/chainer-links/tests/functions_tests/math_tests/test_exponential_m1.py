"""expm1."""

import unittest

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.fix_random()
@testing.unary_math_function_unittest(F.expm1)
class TestExpm1(unittest.TestCase):
    pass


def test_expm1_is_accurate_near_zero():
    # exp(x) - 1 is off by about 1e-8 relative here, from rounding 1 + 1e-10.
    numpy.testing.assert_allclose(F.expm1(numpy.array([1e-10])).array, [1e-10], rtol=1e-9)


def test_integer_input_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.expm1(numpy.ones(3, numpy.int32))
