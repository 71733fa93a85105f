"""hstack: concatenation along axis 1 (axis 0 for 1-D inputs, 0-D ones become 1-D)."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX

_SHAPES = [
    [(), ()],
    [(2,), (3,)],
    [(2, 1), (2, 3)],
    [(2, 1, 2), (2, 2, 2)],
]


@testing.parameterize(
    *testing.product({"shapes": _SHAPES, "dtype": [numpy.float16, numpy.float32, numpy.float64]})
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestHstack(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.shapes)

    def forward(self, inputs, device):
        return (F.hstack(inputs),)

    def forward_expected(self, inputs):
        parts = [x.reshape(1) if x.ndim == 0 else x for x in inputs]
        return (numpy.concatenate(parts, axis=0 if parts[0].ndim == 1 else 1),)


def test_no_inputs_is_rejected():
    with pytest.raises(ValueError, match="hstack needs at least one variable"):
        F.hstack([])


def test_mismatched_shapes_are_rejected():
    xs = [numpy.zeros((2, 2, 2), numpy.float32), numpy.zeros((3, 3, 3), numpy.float32)]
    with pytest.raises(type_check.InvalidType, match="except on axis"):
        F.hstack(xs)
