"""identity: the core's op under its public name."""

import numpy

import chainer
import chainer.functions as F
from chainer import testing
from chainer._ops import array_ops


@testing.fix_random()
@testing.parameterize(*testing.product({"dtype": [numpy.float16, numpy.float32, numpy.float64]}))
@testing.inject_backend_tests(None, [{}])
class TestIdentity(testing.FunctionTestCase):
    def generate_inputs(self):
        return (
            numpy.random.uniform(-1, 1, (3, 2)).astype(self.dtype),
            numpy.random.uniform(-1, 1, ()).astype(self.dtype),
        )

    def forward(self, inputs, device):
        return F.identity(*inputs)

    def forward_expected(self, inputs):
        return tuple(x.copy() for x in inputs)


def test_identity_is_the_core_op_and_returns_new_variables():
    assert F.identity is array_ops.identity
    x = chainer.Variable(numpy.ones(2))
    y = F.identity(x)
    assert y is not x and y.creator is not None
    numpy.testing.assert_array_equal(y.array, x.array)
