"""vstack: concatenation along axis 0 (inputs below 2-D become rows)."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX

_SHAPES = [
    [(), ()],
    [(3,), (3,)],
    [(1, 2), (3, 2)],
    [(1, 2, 2), (2, 2, 2)],
]


@testing.parameterize(
    *testing.product({"shapes": _SHAPES, "dtype": [numpy.float16, numpy.float32, numpy.float64]})
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestVstack(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.shapes)

    def forward(self, inputs, device):
        return (F.vstack(inputs),)

    def forward_expected(self, inputs):
        parts = [x.reshape(1, x.size) if x.ndim < 2 else x for x in inputs]
        return (numpy.concatenate(parts, axis=0),)


def test_no_inputs_is_rejected():
    with pytest.raises(ValueError, match="vstack needs at least one variable"):
        F.vstack([])


def test_mismatched_shapes_are_rejected():
    xs = [numpy.zeros((2, 2, 2), numpy.float32), numpy.zeros((3, 3, 3), numpy.float32)]
    with pytest.raises(type_check.InvalidType, match="except on axis"):
        F.vstack(xs)


@pytest.mark.parametrize(
    ("shapes", "message"),
    [
        ([(3,), (3, 3)], r"in_types\[0\]\.ndim == in_types\[1\]\.ndim"),
        ([(), (1,)], r"in_types\[0\]\.ndim == in_types\[1\]\.ndim"),
        ([(3,), (4,)], r"in_types\[0\]\.shape == in_types\[1\]\.shape"),
    ],
)
@pytest.mark.parametrize("stack", [F.vstack, F.dstack])
def test_inputs_of_other_ndims_or_small_shapes_are_rejected(stack, shapes, message):
    # As in Chainer, vstack and dstack check the inputs before NumPy's promotion.
    xs = [numpy.zeros(s, numpy.float32) for s in shapes]
    with pytest.raises(type_check.InvalidType, match=message):
        stack(xs)
