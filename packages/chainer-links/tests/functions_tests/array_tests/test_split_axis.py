"""split_axis: pieces against hand-made slices, gradients, options and input checks."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


@testing.parameterize(
    *testing.product(
        {
            "case": [
                ((2, 6), 3, 1),
                ((2, 6), [1, 4], 1),
                ((4, 2), [2, 2], 0),  # an empty middle piece
                ((3, 4, 2), [1, -1], 1),  # a negative index counts from the end
                ((0, 4), 2, 1),
                ((5,), [], 0),
            ],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSplitAxis(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.indices_or_sections, self.axis = self.case
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return F.split_axis(inputs[0], self.indices_or_sections, self.axis)

    def forward_expected(self, inputs):
        (x,) = inputs
        length = x.shape[self.axis]
        if isinstance(self.indices_or_sections, int):
            step = length // self.indices_or_sections
            cuts = [step * i for i in range(1, self.indices_or_sections)]
        else:
            cuts = [i % length if i < 0 else i for i in self.indices_or_sections]
        bounds = [0, *cuts, length]
        lead = (slice(None),) * self.axis
        return tuple(x[(*lead, slice(a, b))].copy() for a, b in zip(bounds[:-1], bounds[1:]))


def test_force_tuple_false_returns_a_single_variable():
    x = numpy.ones((2, 3), numpy.float32)
    y = F.split_axis(x, 1, 1, force_tuple=False)
    assert isinstance(y, chainer.Variable) and y.shape == (2, 3)
    assert isinstance(F.split_axis(x, 1, 1), tuple)
    assert len(F.split_axis(x, 3, 1, force_tuple=False)) == 3


def test_gradient_of_unused_pieces_is_zero():
    x = chainer.Variable(numpy.ones((2, 4), numpy.float32))
    a, b = F.split_axis(x, 2, 1)
    y = a * 3
    y.grad = numpy.ones_like(y.array)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[3, 3, 0, 0], [3, 3, 0, 0]])


def test_indivisible_sections_are_rejected():
    x = numpy.ones((2, 5), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"x.shape\[1\] % sections == 0"):
        F.split_axis(x, 2, 1)


def test_axis_out_of_range_is_rejected():
    x = numpy.ones((2, 5), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"-2 <= axis < 2"):
        F.split_axis(x, 1, 2)


def test_index_beyond_the_axis_is_rejected():
    x = numpy.ones((2, 5), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"indices=\(2, 7\)"):
        F.split_axis(x, [2, 7], 1)


def test_unsorted_indices_are_rejected():
    x = numpy.ones((2, 5), numpy.float32)
    with pytest.raises(ValueError, match=r"indices must be sorted.*\(3, 1\)"):
        F.split_axis(x, [3, 1], 1)


def test_bad_argument_types_are_rejected():
    x = numpy.ones((2, 4), numpy.float32)
    with pytest.raises(ValueError, match="number of sections must be positive, got 0"):
        F.split_axis(x, 0, 1)
    with pytest.raises(TypeError, match="indices_or_sections must be an int or a 1-D"):
        F.split_axis(x, 2.0, 1)
    with pytest.raises(TypeError, match="indices must be integers"):
        F.split_axis(x, [1.5], 1)
    with pytest.raises(TypeError, match="axis must be an int"):
        F.split_axis(x, 2, None)


def test_indivisible_sections_without_type_check_raise_value_error():
    x = numpy.ones((2, 5), numpy.float32)
    with chainer.using_config("type_check", False):
        with pytest.raises(ValueError, match="length 5 cannot be split into 2 equal pieces"):
            F.split_axis(x, 2, 1)
