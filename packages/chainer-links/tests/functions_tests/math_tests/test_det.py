"""det and batch_det."""

import itertools

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _det_by_permutations(a):
    n = len(a)
    total = 0.0
    for perm in itertools.permutations(range(n)):
        inversions = sum(perm[i] > perm[j] for i in range(n) for j in range(i + 1, n))
        term = (-1.0) ** inversions
        for row, col in enumerate(perm):
            term *= float(a[row, col])
        total += term
    return total


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "shape": [(1, 1), (3, 3), (2, 3, 3), (0, 2, 2)],
        }
    )
)
@testing.inject_backend_tests(None, [{}])
class TestDet(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:  # computed in float32, rounded to float16
            self.check_forward_options = {"atol": 5e-3, "rtol": 5e-3}
            self.check_backward_options = {"atol": 5e-2, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-2, "rtol": 5e-2}
        if self.dtype == numpy.float32:
            self.check_forward_options = {"atol": 1e-4, "rtol": 1e-4}
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-3}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-3}

    def generate_inputs(self):
        n = self.shape[-1]
        a = numpy.random.uniform(-1, 1, self.shape) + n * numpy.eye(n)
        return (a.astype(self.dtype),)

    def forward(self, inputs, device):
        f = F.det if len(self.shape) == 2 else F.batch_det
        return (f(inputs[0]),)

    def forward_expected(self, inputs):
        a = inputs[0]
        if a.ndim == 2:
            return (numpy.asarray(_det_by_permutations(a), dtype=self.dtype),)
        y = numpy.array([_det_by_permutations(m) for m in a]).reshape(len(a))
        return (y.astype(self.dtype),)


def test_bad_shapes_are_rejected():
    with pytest.raises(type_check.InvalidType, match=r"a\.ndim == 2"):
        F.det(numpy.ones((2, 2, 2)))
    with pytest.raises(type_check.InvalidType, match=r"a\.shape\[1\] == a\.shape\[2\]"):
        F.batch_det(numpy.ones((2, 2, 3)))
