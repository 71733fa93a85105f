"""sin, cos, tan, arcsin, arccos, arctan (the unary kit) and arctan2 (FunctionTestCase)."""

import unittest

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


def _inside_unit_interval(shape, dtype):
    # Away from +-1, where the derivatives of arcsin and arccos blow up.
    return tuple(numpy.random.uniform(-0.9, 0.9, shape).astype(dtype) for _ in range(3))


@testing.fix_random()
@testing.unary_math_function_unittest(F.sin)
class TestSin(unittest.TestCase):
    pass


@testing.fix_random()
@testing.unary_math_function_unittest(F.cos)
class TestCos(unittest.TestCase):
    pass


@testing.fix_random()
@testing.unary_math_function_unittest(F.tan)
class TestTan(unittest.TestCase):
    pass


@testing.fix_random()
@testing.unary_math_function_unittest(F.arcsin, make_data=_inside_unit_interval)
class TestArcsin(unittest.TestCase):
    pass


@testing.fix_random()
@testing.unary_math_function_unittest(F.arccos, make_data=_inside_unit_interval)
class TestArccos(unittest.TestCase):
    pass


@testing.fix_random()
@testing.unary_math_function_unittest(F.arctan)
class TestArctan(unittest.TestCase):
    pass


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "shapes": [((3, 2), (3, 2)), ((3, 2), (2,)), ((), ()), ((0, 2), (1, 2))],
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestArctan2(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 1e-3, "rtol": 1e-3}
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        s1, s2 = self.shapes
        x1 = numpy.random.uniform(-1, 1, s1).astype(self.dtype)
        # |x2| >= 0.5 keeps the point away from the origin, where arctan2 is singular.
        x2 = numpy.random.uniform(0.5, 1, s2) * numpy.random.choice([-1, 1], s2)
        return x1, numpy.asarray(x2, dtype=self.dtype)

    def forward(self, inputs, device):
        return (F.arctan2(*inputs),)

    def forward_expected(self, inputs):
        x1, x2 = inputs
        return (numpy.asarray(numpy.arctan2(x1, x2), dtype=self.dtype),)


@pytest.mark.parametrize("name", ["sin", "cos", "tan", "arcsin", "arccos", "arctan"])
def test_zero_size_input_keeps_shape(name):
    y = getattr(F, name)(numpy.zeros((0, 3), numpy.float32))
    assert y.shape == (0, 3) and y.dtype == numpy.float32


@pytest.mark.parametrize("name", ["sin", "cos", "tan", "arcsin", "arccos", "arctan"])
def test_integer_input_is_rejected(name):
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        getattr(F, name)(numpy.zeros(3, numpy.int32))


def test_arctan2_rejects_mismatched_dtypes_and_shapes():
    x = numpy.ones(3, numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"x1\.dtype == x2\.dtype"):
        F.arctan2(x, numpy.ones(3, numpy.float64))
    with pytest.raises(type_check.InvalidType, match=r"cannot broadcast \(3,\), \(2,\)"):
        F.arctan2(x, numpy.ones(2, numpy.float32))


def test_arctan2_picks_the_quadrant():
    y = F.arctan2(numpy.array([1.0, 1.0, -1.0]), numpy.array([1.0, -1.0, -1.0]))
    numpy.testing.assert_allclose(y.array, [numpy.pi / 4, 3 * numpy.pi / 4, -3 * numpy.pi / 4])


@pytest.mark.parametrize(
    "name", ["sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "sqrt", "log1p"]
)
def test_elementwise_function_nodes_are_labelled_by_their_numpy_name(name):
    y = getattr(F, name)(chainer.Variable(numpy.full(2, 0.5, numpy.float32)))
    assert y.creator.label == name
