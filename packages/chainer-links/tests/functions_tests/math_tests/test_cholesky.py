"""cholesky."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _cholesky_by_hand(a):
    n = len(a)
    low = numpy.zeros((n, n))
    for i in range(n):
        for j in range(i + 1):
            s = a[i, j] - numpy.dot(low[i, :j], low[j, :j])
            low[i, j] = numpy.sqrt(s) if i == j else s / low[j, j]
    return low


@testing.fix_random()
@testing.parameterize(*testing.product({"dtype": [numpy.float32, numpy.float64], "n": [1, 4]}))
@testing.inject_backend_tests(None, [{}])
class TestCholesky(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float32:
            self.check_forward_options = {"atol": 1e-5, "rtol": 1e-4}
            self.check_backward_options = {"atol": 1e-3, "rtol": 1e-2}
            self.check_double_backward_options = {"atol": 1e-3, "rtol": 1e-2}

    def generate_inputs(self):
        m = numpy.random.uniform(-1, 1, (self.n, self.n))
        return ((m @ m.T + self.n * numpy.eye(self.n)).astype(self.dtype),)

    def forward(self, inputs, device):
        # The input is symmetric by definition: differentiate through its symmetrization,
        # since only the lower triangle is read.
        (a,) = inputs
        return (F.cholesky((a + a.T) * 0.5),)

    def forward_expected(self, inputs):
        return (_cholesky_by_hand(inputs[0].astype(numpy.float64)).astype(self.dtype),)


def test_gradient_is_symmetric():
    a = chainer.Variable(numpy.array([[4.0, 2.0], [2.0, 3.0]]))
    F.sum(F.cholesky(a)).backward()
    numpy.testing.assert_allclose(a.grad, a.grad.T)


def test_bad_inputs_are_rejected():
    with pytest.raises(ValueError, match=r"positive-definite"):
        F.cholesky(-numpy.eye(2))
    with pytest.raises(type_check.InvalidType, match=r"a\.shape\[0\] == a\.shape\[1\]"):
        F.cholesky(numpy.ones((2, 3)))
