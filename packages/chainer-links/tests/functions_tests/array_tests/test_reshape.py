"""reshape: chainer-core's implementation at Chainer's path."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer._ops import array_ops
from chainer.functions.array.reshape import Reshape, reshape
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


def test_is_the_core_implementation():
    assert Reshape is array_ops.Reshape
    assert reshape is array_ops.reshape
    assert F.reshape is reshape


_CASES = [
    ((3, 4), ((2, 6),), lambda x: x.reshape(2, 6)),
    ((3, 4), ((-1,),), lambda x: x.reshape(12)),
    ((2, 0), ((0, 5),), lambda x: x.reshape(0, 5)),
    ((), ((1, 1),), lambda x: x.reshape(1, 1)),
]


@testing.parameterize(
    *testing.product({"case": _CASES, "dtype": [numpy.float16, numpy.float32, numpy.float64]})
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestReshape(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.args, self.expected = self.case
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.reshape(inputs[0], *self.args),)

    def forward_expected(self, inputs):
        return (numpy.array(self.expected(inputs[0])),)


def test_wrong_size_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"cannot reshape an array of shape"):
        F.reshape(numpy.zeros((2, 3), numpy.float32), (4, 2))
