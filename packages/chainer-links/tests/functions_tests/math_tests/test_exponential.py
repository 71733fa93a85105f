"""exp and log (the core's ops, re-exported), log2 and log10."""

import unittest

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer._ops import exponential as core_exponential
from chainer.functions.math import exponential
from chainer.utils import type_check


def _positive(shape, dtype):
    x = numpy.random.uniform(0.5, 2, shape).astype(dtype)
    gy, ggx = (numpy.random.uniform(-1, 1, shape).astype(dtype) for _ in range(2))
    return x, gy, ggx


@testing.fix_random()
@testing.unary_math_function_unittest(F.exp)
class TestExp(unittest.TestCase):
    pass


@testing.fix_random()
@testing.unary_math_function_unittest(F.log, make_data=_positive)
class TestLog(unittest.TestCase):
    pass


@testing.fix_random()
@testing.unary_math_function_unittest(F.log2, make_data=_positive)
class TestLog2(unittest.TestCase):
    pass


@testing.fix_random()
@testing.unary_math_function_unittest(F.log10, make_data=_positive)
class TestLog10(unittest.TestCase):
    pass


def test_exp_and_log_are_the_core_ops():
    assert F.exp is core_exponential.exp and exponential.Exp is core_exponential.Exp
    assert F.log is core_exponential.log and exponential.Log is core_exponential.Log


@pytest.mark.parametrize("name", ["log2", "log10"])
def test_zero_size_and_integer_input(name):
    assert getattr(F, name)(numpy.ones((0, 2), numpy.float16)).shape == (0, 2)
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        getattr(F, name)(numpy.ones(3, numpy.int32))
