"""scatter_add: accumulation of repeated indexes, gradients, and the shape check."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _scatter_loops(a, slices, b):
    """Add b into a copy of a element by element through an index map of a's positions."""
    y = a.copy()
    positions = numpy.arange(a.size).reshape(a.shape)[slices]
    flat = y.reshape(-1)
    for p, v in zip(positions.ravel(), b.ravel()):
        flat[p] += v
    return y


_CASES = [
    ((4,), [0, 2, 0], (3,)),
    ((3, 2), (slice(None), 1), (3,)),
    ((3, 2), (numpy.array([2, 0, 2]), slice(None)), (3, 2)),
    ((2, 3), (Ellipsis, numpy.array([[0, 1], [1, 1]])), (2, 2, 2)),
    ((3, 2), numpy.array([True, False, True]), (2, 2)),
    ((2, 2), (None, 0), (1, 2)),
]


@testing.parameterize(
    *testing.product({"case": _CASES, "dtype": [numpy.float16, numpy.float32, numpy.float64]})
)
@testing.fix_random()
@testing.inject_backend_tests(None, [{}])
class TestScatterAdd(testing.FunctionTestCase):
    def setUp(self):
        self.a_shape, self.slices, self.b_shape = self.case
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 1e-3, "rtol": 1e-3}
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        a = numpy.random.uniform(-1, 1, self.a_shape).astype(self.dtype)
        b = numpy.random.uniform(-1, 1, self.b_shape).astype(self.dtype)
        return a, b

    def forward(self, inputs, device):
        a, b = inputs
        return (F.scatter_add(a, self.slices, b),)

    def forward_expected(self, inputs):
        a, b = inputs
        slices = (self.slices,) if isinstance(self.slices, list) else self.slices
        return (_scatter_loops(a, slices, b),)


def test_input_is_left_unchanged():
    a = numpy.zeros(3, numpy.float32)
    F.scatter_add(a, [1], numpy.ones(1, numpy.float32))
    numpy.testing.assert_array_equal(a, numpy.zeros(3))


def test_variable_index_is_accepted():
    a = numpy.zeros(3, numpy.float32)
    index = chainer.Variable(numpy.array([2, 2]))
    y = F.scatter_add(a, index, numpy.ones(2, numpy.float32))
    numpy.testing.assert_array_equal(y.array, [0, 0, 2])


def test_broadcasting_b_is_rejected():
    a = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(
        ValueError, match=r"b must have the shape of a\[slices\], \(2, 3\), got \(3,\)"
    ):
        F.scatter_add(a, slice(None), numpy.ones(3, numpy.float32))


def test_dtype_mismatch_and_too_many_indexes_are_rejected():
    a = numpy.zeros((2,), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"a.dtype == b.dtype"):
        F.scatter_add(a, 0, numpy.ones((), numpy.float64))
    with pytest.raises(type_check.InvalidType, match=r"a.ndim >= 2"):
        F.scatter_add(a, (0, 0), numpy.ones((), numpy.float32))


def test_two_ellipses_are_a_value_error_as_in_v7():
    a = numpy.zeros((4, 3, 2))
    with pytest.raises(ValueError, match=r"scatter_add: an index can hold one Ellipsis"):
        F.scatter_add(a, (Ellipsis, Ellipsis), numpy.zeros((2, 2)))
