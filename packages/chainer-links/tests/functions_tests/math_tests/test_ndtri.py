"""ndtri."""

import unittest

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

special = pytest.importorskip("scipy.special")


def _expected(x, dtype):
    return special.ndtri(x.astype(numpy.float64)).astype(dtype)


def _make_data(shape, dtype):
    x = numpy.random.uniform(0.2, 0.8, shape).astype(dtype)
    gy, ggx = (numpy.random.uniform(-1, 1, shape).astype(dtype) for _ in range(2))
    return x, gy, ggx


@testing.fix_random()
@testing.unary_math_function_unittest(F.ndtri, func_expected=_expected, make_data=_make_data)
class TestNdtri(unittest.TestCase):
    pass


def test_integer_input_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.ndtri(numpy.ones(3, numpy.int32))
