"""pad_sequence: padding loops, gradients of each sequence, ints, and the checks."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.testing import attr
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


@testing.parameterize(
    *testing.product(
        {
            "case": [
                ([(3,), (1,), (2,)], None, 0),
                ([(2, 2), (3, 2)], 5, -1.5),
                ([(0, 2), (1, 2)], None, 0),
                ([(2,)], 2, 0),
            ],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestPadSequence(testing.FunctionTestCase):
    def setUp(self):
        self.shapes, self.length, self.padding = self.case
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.shapes)

    def forward(self, inputs, device):
        return (F.pad_sequence(inputs, self.length, self.padding),)

    def forward_expected(self, inputs):
        length = self.length or max(len(x) for x in inputs)
        y = numpy.empty((len(inputs), length) + inputs[0].shape[1:], self.dtype)
        for i, x in enumerate(inputs):
            for t in range(length):
                y[i, t] = x[t] if t < len(x) else self.padding
        return (y,)


def test_integer_sequences_are_padded():
    xs = [numpy.array([1, 2, 3], numpy.int32), numpy.array([4], numpy.int32)]
    y = F.pad_sequence(xs, padding=-1)
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, [[1, 2, 3], [4, -1, -1]])


def test_too_short_length_is_rejected():
    xs = [numpy.zeros(3, numpy.float32)]
    with pytest.raises(type_check.InvalidType, match=r"xs\[0\].shape\[0\] <= 2"):
        F.pad_sequence(xs, length=2)


def test_mismatched_shapes_and_dtypes_are_rejected():
    a = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"xs\[1\].shape\[1:\]"):
        F.pad_sequence([a, numpy.zeros((2, 4), numpy.float32)])
    with pytest.raises(type_check.InvalidType, match=r"xs\[1\].dtype"):
        F.pad_sequence([a, numpy.zeros((2, 3), numpy.float64)])
    with pytest.raises(type_check.InvalidType, match=r"xs\[0\].ndim > 0"):
        F.pad_sequence([numpy.zeros((), numpy.float32)])


def test_bad_arguments_are_rejected():
    with pytest.raises(ValueError, match="at least one sequence"):
        F.pad_sequence([])
    with pytest.raises(ValueError, match=r"length must be None or a non-negative int, got -1"):
        F.pad_sequence([numpy.zeros(2, numpy.float32)], length=-1)


def test_negative_padding_wraps_for_unsigned_dtypes_as_in_v7():
    xs = [numpy.arange(2, dtype=numpy.uint8), numpy.arange(3, dtype=numpy.uint8)]
    y = F.pad_sequence(xs, padding=-1)
    numpy.testing.assert_array_equal(y.array, [[0, 1, 255], [0, 1, 2]])
    assert y.dtype == numpy.uint8


@attr.chainerx
def test_negative_padding_wraps_for_unsigned_dtypes_on_chainerx():
    import chainerx

    xs = [chainerx.array(numpy.arange(n, dtype=numpy.uint8)) for n in (2, 3)]
    y = F.pad_sequence(xs, padding=-1)
    assert y.dtype == numpy.uint8
    numpy.testing.assert_array_equal(chainerx.to_numpy(y.array), [[0, 1, 255], [0, 1, 2]])
