"""get_item: chainer-core's implementation at Chainer's path."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer._ops import get_item as core_get_item
from chainer.functions.array.get_item import GetItem, GetItemGrad, get_item

from ..backend_configs import CPU_AND_CHAINERX


def test_is_the_core_implementation():
    assert GetItem is core_get_item.GetItem
    assert GetItemGrad is core_get_item.GetItemGrad
    assert get_item is core_get_item.get_item
    assert F.get_item is get_item


_CASES = [
    ((4, 3), ((slice(1, 3), slice(None, None, -1)),), lambda x: x[1:3, ::-1]),
    ((4, 3), ([0, 0, 2],), lambda x: x[[0, 0, 2]]),
    ((4, 3), ((Ellipsis, None, 1),), lambda x: x[..., None, 1]),
    ((4,), (numpy.array([True, False, True, True]),), lambda x: x[[0, 2, 3]]),
    ((2, 3), ((1, 2),), lambda x: numpy.asarray(x[1, 2])),
    # Chainer's rule for a list that is not all integers: it is a tuple of indexes.
    ((4, 3), ([slice(1, None)],), lambda x: x[1:]),
    ((4, 3), ([[0, 1], [1, 2]],), lambda x: x[numpy.array([0, 1]), numpy.array([1, 2])]),
    ((4, 3), ([slice(None), 2],), lambda x: x[:, 2]),
    ((4,), ([True, False, True, True],), lambda x: x[[0, 2, 3]]),
]


@testing.parameterize(
    *testing.product({"case": _CASES, "dtype": [numpy.float16, numpy.float32, numpy.float64]})
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestGetItem(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.args, self.expected = self.case
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.get_item(inputs[0], *self.args),)

    def forward_expected(self, inputs):
        return (numpy.array(self.expected(inputs[0])),)


def test_out_of_range_index_is_rejected():
    # An IndexError, as for arrays, so that iterating over a variable stops at its end.
    with pytest.raises(IndexError, match=r"index \(2, 0\) is invalid for shape \(2, 3\)"):
        F.get_item(numpy.zeros((2, 3), numpy.float32), (2, 0))


def test_two_ellipses_are_a_value_error_as_in_v7():
    x = numpy.zeros((4, 3, 2), numpy.float32)
    with pytest.raises(ValueError, match=r"get_item: an index can hold one Ellipsis"):
        get_item(x, (Ellipsis, Ellipsis))
