"""prod, including inputs with zeros."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "case": [
                ((3, 4), None, False),
                ((3, 4), 1, True),
                ((2, 3, 4), (0, 2), False),
                ((2, 3, 4), -1, False),
                ((), None, False),
            ],
            "zeros": [False, True],
        }
    )
)
@testing.inject_backend_tests(None, [{}])
class TestProd(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.axis, self.keepdims = self.case
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 5e-3, "rtol": 5e-3}
            self.check_backward_options = {"atol": 1e-2, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 1e-2, "rtol": 5e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(0.5, 1.5, self.shape) * numpy.random.choice([-1, 1], self.shape)
        if self.zeros and x.size > 1:
            x.reshape(-1)[[0, 1, 5]] = 0  # slices with one zero and with two
        return (numpy.asarray(x, dtype=self.dtype),)

    def forward(self, inputs, device):
        return (F.prod(inputs[0], self.axis, self.keepdims),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        axes = range(x.ndim) if self.axis is None else self.axis
        axes = (axes,) if isinstance(axes, int) else axes
        axes = tuple(a % x.ndim for a in axes)
        y = x
        for a in sorted(axes, reverse=True):
            product = numpy.ones(y.shape[:a] + y.shape[a + 1 :])
            for i in range(y.shape[a]):
                product = product * numpy.take(y, i, axis=a)
            y = numpy.expand_dims(product, a) if self.keepdims else product
        return (numpy.asarray(y, dtype=self.dtype),)


def test_only_a_lone_zero_gets_a_gradient():
    x = chainer.Variable(numpy.array([[2.0, 0.0, 3.0], [0.0, 0.0, 4.0]]))
    F.sum(F.prod(x, axis=1)).backward()
    numpy.testing.assert_array_equal(x.grad, [[0.0, 6.0, 0.0], [0.0, 0.0, 0.0]])


def test_bad_inputs_are_rejected():
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.prod(numpy.ones(3, numpy.int32))
    with pytest.raises(ValueError, match=r"duplicate value in axis: \(1, 1\)"):
        F.prod(numpy.ones((2, 3)), axis=(1, 1))
