"""squeeze: chainer-core's implementation at Chainer's path."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer._ops import array_ops
from chainer.functions.array.squeeze import squeeze

from ..backend_configs import CPU_AND_CHAINERX


def test_is_the_core_implementation():
    assert squeeze is array_ops.squeeze
    assert F.squeeze is squeeze


_CASES = [
    ((1, 3, 1), (), lambda x: x.reshape(3)),
    ((1, 3, 1), (2,), lambda x: x.reshape(1, 3)),
    ((1, 3, 1), ((0, -1),), lambda x: x.reshape(3)),
    ((1,), (), lambda x: x.reshape(())),
]


@testing.parameterize(
    *testing.product({"case": _CASES, "dtype": [numpy.float16, numpy.float32, numpy.float64]})
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSqueeze(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.args, self.expected = self.case
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.squeeze(inputs[0], *self.args),)

    def forward_expected(self, inputs):
        return (numpy.array(self.expected(inputs[0])),)


def test_axis_of_length_two_is_rejected():
    with pytest.raises(ValueError, match=r"cannot squeeze axis 0 of length 2"):
        F.squeeze(numpy.zeros((2, 1), numpy.float32), 0)
