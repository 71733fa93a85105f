"""cast: chainer-core's implementation at Chainer's path; gradients are cast back."""

import numpy

import chainer.functions as F
from chainer import testing
from chainer._ops import array_ops
from chainer.functions.array.cast import Cast, cast

from ..backend_configs import CPU_AND_CHAINERX


def test_is_the_core_implementation():
    assert Cast is array_ops.Cast
    assert cast is array_ops.cast
    assert F.cast is cast


@testing.parameterize(
    *testing.product(
        {
            "types": [
                (numpy.float16, numpy.float32),
                (numpy.float32, numpy.float64),
                (numpy.float64, numpy.float16),
            ]
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestCast(testing.FunctionTestCase):
    # Cast is linear: a large step keeps float16 rounding out of the finite differences.
    check_backward_options = {"eps": 0.25, "atol": 5e-3, "rtol": 5e-2}
    check_double_backward_options = {"eps": 0.25, "atol": 5e-3, "rtol": 5e-2}
    check_forward_options = {"atol": 1e-3, "rtol": 1e-3}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (3, 2)).astype(self.types[0]),)

    def forward(self, inputs, device):
        y = F.cast(inputs[0], self.types[1])
        assert y.dtype == self.types[1]
        return (y,)

    def forward_expected(self, inputs):
        return (numpy.array(inputs[0].tolist(), dtype=self.types[1]),)
