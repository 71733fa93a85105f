"""add (n-ary) and absolute: the core's arithmetic under its public names."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer._ops import basic_math as core_basic_math
from chainer.functions.math import basic_math
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX

_FLOAT16_TOLERANCES = {
    "check_forward_options": {"atol": 1e-3, "rtol": 1e-3},
    "check_backward_options": {"atol": 5e-3, "rtol": 5e-2},
    "check_double_backward_options": {"atol": 5e-3, "rtol": 5e-2},
}


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "shapes": [
                ((3, 2), (3, 2)),
                ((3, 2), (2,), (1, 2)),
                ((), (), ()),
                ((0, 2), (2,)),
            ],
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestAdd(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            for name, options in _FLOAT16_TOLERANCES.items():
                setattr(self, name, options)

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.shapes)

    def forward(self, inputs, device):
        return (F.add(*inputs),)

    def forward_expected(self, inputs):
        total = inputs[0]
        for x in inputs[1:]:
            total = total + x
        return (numpy.asarray(total, dtype=self.dtype),)


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {"dtype": [numpy.float16, numpy.float32, numpy.float64], "shape": [(3, 2), (1,), (0,)]}
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestAbsolute(testing.FunctionTestCase):
    dodge_nondifferentiable = True

    def setUp(self):
        if self.dtype == numpy.float16:
            for name, options in _FLOAT16_TOLERANCES.items():
                setattr(self, name, options)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.absolute(*inputs),)

    def forward_expected(self, inputs):
        return (numpy.asarray(numpy.where(inputs[0] < 0, -inputs[0], inputs[0])),)


def test_one_implementation_with_the_operators():
    assert F.add is core_basic_math.add
    assert basic_math.Add is core_basic_math.Add
    assert basic_math.Absolute is core_basic_math.Absolute
    x = chainer.Variable(numpy.array([-2.0, 3.0]))
    assert type(abs(x).creator) is type(F.absolute(x).creator) is basic_math.Absolute


def test_absolute_backward_of_a_0d_input():
    x = chainer.Variable(numpy.array(-2.0))
    F.absolute(x).backward()
    assert x.grad == -1.0


def test_add_of_one_input_returns_it():
    x = chainer.Variable(numpy.array([1.0]))
    assert F.add(x) is x


def test_add_rejects_mixed_dtypes_and_shapes():
    with pytest.raises(type_check.InvalidType, match=r"in_types\[0\]\.dtype == in_types\[1\]"):
        F.add(numpy.ones(2, numpy.float32), numpy.ones(2, numpy.float64))
    with pytest.raises(type_check.InvalidType, match=r"cannot broadcast \(2,\), \(3,\)"):
        F.add(numpy.ones(2), numpy.ones(3))


def test_v7_private_name_of_the_constant_label():
    assert basic_math._convert_value_to_string is core_basic_math.constant_label
    assert basic_math._convert_value_to_string(-2) == "(-2)"
    assert basic_math.AddConstant(2.0).label == "_ + 2.0"
