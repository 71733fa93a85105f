"""broadcast: several variables to one shape, gradients summed back, and the shape check."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer._ops import array_ops
from chainer.functions.array.broadcast import BroadcastTo, broadcast_to
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


def test_broadcast_to_is_the_core_implementation():
    assert BroadcastTo is array_ops.BroadcastTo
    assert broadcast_to is array_ops.broadcast_to
    assert F.broadcast_to is broadcast_to


@testing.parameterize(
    *testing.product(
        {
            "shapes": [
                [(2, 3), (3,)],
                [(3, 1), (1, 4), ()],
                [(2, 1, 3), (2, 4, 3)],
                [(0, 2), (1, 2)],
            ],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestBroadcast(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.shapes)

    def forward(self, inputs, device):
        return F.broadcast(*inputs)

    def forward_expected(self, inputs):
        ndim = max(len(s) for s in self.shapes)
        padded = [(1,) * (ndim - len(s)) + s for s in self.shapes]
        shape = tuple(max(sizes) if 0 not in sizes else 0 for sizes in zip(*padded))
        # Repeat every element over the axes where the input has length one.
        return tuple(
            numpy.tile(x.reshape(p), [n if m == 1 else 1 for n, m in zip(shape, p)])
            for x, p in zip(inputs, padded)
        )


def test_a_single_argument_is_returned_as_a_variable():
    x = numpy.ones((2, 3), numpy.float32)
    y = F.broadcast(x)
    assert isinstance(y, chainer.Variable) and y.array is x
    v = chainer.Variable(x)
    assert F.broadcast(v) is v


def test_incompatible_shapes_are_rejected():
    a = numpy.zeros((2, 3), numpy.float32)
    b = numpy.zeros((4,), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"cannot broadcast \(2, 3\), \(4,\)"):
        F.broadcast(a, b)


def test_broadcast_to_rejects_incompatible_shape():
    with pytest.raises(type_check.InvalidType, match=r"can be broadcast to \(2, 4\)"):
        F.broadcast_to(numpy.zeros((3,), numpy.float32), (2, 4))


@testing.parameterize(
    *testing.product(
        {
            "shapes": [((3, 1), (2, 3, 4)), ((), (2,)), ((2, 3), (2, 3)), ((1,), (0,))],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestBroadcastTo(testing.FunctionTestCase):
    def setUp(self):
        self.in_shape, self.out_shape = self.shapes
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.in_shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.broadcast_to(inputs[0], self.out_shape),)

    def forward_expected(self, inputs):
        (x,) = inputs
        padded = x.reshape((1,) * (len(self.out_shape) - x.ndim) + x.shape)
        y = numpy.empty(self.out_shape, self.dtype)
        for index in numpy.ndindex(*self.out_shape):
            y[index] = padded[tuple(0 if n == 1 else i for i, n in zip(index, padded.shape))]
        return (y,)
