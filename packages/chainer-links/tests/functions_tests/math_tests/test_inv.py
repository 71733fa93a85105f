"""inv and batch_inv."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


def _well_conditioned(shape, dtype):
    n = shape[-1]
    a = numpy.random.uniform(-1, 1, shape) + 2 * n * numpy.eye(n)
    return a.astype(dtype)


def _inverse_by_gauss_jordan(a):
    n = len(a)
    work = numpy.hstack([a.astype(numpy.float64), numpy.eye(n)])
    for col in range(n):
        pivot = col + numpy.argmax(abs(work[col:, col]))
        work[[col, pivot]] = work[[pivot, col]]
        work[col] /= work[col, col]
        for row in range(n):
            if row != col:
                work[row] -= work[row, col] * work[col]
    return work[:, n:]


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "shape": [(1, 1), (3, 3), (2, 3, 3), (0, 2, 2)],
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestInv(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:  # computed in float32, rounded to float16
            self.check_forward_options = {"atol": 5e-3, "rtol": 5e-3}
            self.check_backward_options = {"atol": 5e-2, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-2, "rtol": 5e-2}
        if self.dtype == numpy.float32:
            self.check_forward_options = {"atol": 1e-5, "rtol": 1e-4}
            self.check_backward_options = {"atol": 5e-4, "rtol": 5e-3}
            self.check_double_backward_options = {"atol": 5e-4, "rtol": 5e-3}

    def generate_inputs(self):
        return (_well_conditioned(self.shape, self.dtype),)

    def forward(self, inputs, device):
        f = F.inv if len(self.shape) == 2 else F.batch_inv
        return (f(inputs[0]),)

    def forward_expected(self, inputs):
        a = inputs[0]
        if a.ndim == 2:
            return (_inverse_by_gauss_jordan(a).astype(self.dtype),)
        y = numpy.array([_inverse_by_gauss_jordan(m) for m in a]).reshape(a.shape)
        return (y.astype(self.dtype),)


def test_singular_matrix_is_reported():
    with pytest.raises(ValueError, match=r"Inv: the input has singular matrices"):
        F.inv(numpy.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"BatchInv: the input has singular matrices"):
        F.batch_inv(numpy.stack([numpy.eye(2), numpy.zeros((2, 2))]))


def test_bad_shapes_and_dtypes_are_rejected():
    with pytest.raises(type_check.InvalidType, match=r"a\.shape\[0\] == a\.shape\[1\]"):
        F.inv(numpy.ones((2, 3)))
    with pytest.raises(type_check.InvalidType, match=r"a\.ndim == 3"):
        F.batch_inv(numpy.ones((2, 2)))
    with pytest.raises(type_check.InvalidType, match=r"a\.dtype in \(float16, float32, float64\)"):
        F.inv(numpy.eye(2, dtype=numpy.int32))
