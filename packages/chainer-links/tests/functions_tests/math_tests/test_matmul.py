"""matmul (the core's op, behind ``@``) and the deprecated batch_matmul."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer._ops import matmul as core_matmul
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "case": [
                ((2, 3), (3, 4), False, False),
                ((3, 2), (3, 4), True, False),
                ((2, 3), (4, 3), False, True),
                ((2, 1, 2, 3), (4, 3, 2), True, True),
                ((3,), (3, 2), False, False),
                ((2, 3), (3,), False, False),
                ((0, 3), (3, 2), False, False),
            ],
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestMatMul(testing.FunctionTestCase):
    def setUp(self):
        self.a_shape, self.b_shape, self.transa, self.transb = self.case
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 1e-3, "rtol": 1e-3}
            self.check_backward_options = {"atol": 1e-2, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 1e-2, "rtol": 5e-2}

    def generate_inputs(self):
        a = numpy.random.uniform(-1, 1, self.a_shape).astype(self.dtype)
        b = numpy.random.uniform(-1, 1, self.b_shape).astype(self.dtype)
        return a, b

    def forward(self, inputs, device):
        return (F.matmul(*inputs, transa=self.transa, transb=self.transb),)

    def forward_expected(self, inputs):
        a, b = (x.astype(numpy.float64) for x in inputs)
        if self.transa:
            a = a.swapaxes(-1, -2)
        if self.transb:
            b = b.swapaxes(-1, -2)
        return (numpy.asarray(numpy.matmul(a, b), dtype=self.dtype),)


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float32, numpy.float64],
            "case": [
                ((2, 3, 4), (2, 4, 5), False, False),
                ((2, 4, 3), (2, 5, 4), True, True),
                ((2, 3), (2, 3), True, False),
            ],
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestBatchMatMul(testing.FunctionTestCase):
    def setUp(self):
        self.a_shape, self.b_shape, self.transa, self.transb = self.case

    def generate_inputs(self):
        a = numpy.random.uniform(-1, 1, self.a_shape).astype(self.dtype)
        b = numpy.random.uniform(-1, 1, self.b_shape).astype(self.dtype)
        return a, b

    def forward(self, inputs, device):
        with pytest.warns(DeprecationWarning, match="batch_matmul is deprecated"):
            return (F.batch_matmul(*inputs, transa=self.transa, transb=self.transb),)

    def forward_expected(self, inputs):
        # A 2-D operand (B, N) is a batch of N x 1 column vectors.
        a, b = (x.reshape(x.shape + (1,)) if x.ndim == 2 else x for x in inputs)
        if self.transa:
            a = a.swapaxes(-1, -2)
        if self.transb:
            b = b.swapaxes(-1, -2)
        return (numpy.einsum("bij,bjk->bik", a, b).astype(self.dtype),)


def test_matmul_is_the_core_op():
    assert F.matmul is core_matmul.matmul
    assert F.math.matmul.matmul is core_matmul.matmul  # the module re-exports the core op


def test_matmul_rejects_mismatched_inner_axes():
    with pytest.raises(type_check.InvalidType, match=r"3 != 4 \(a\.shape=\(2, 3\)"):
        F.matmul(numpy.ones((2, 3)), numpy.ones((4, 2)))


@pytest.mark.parametrize("transb", [False, True])
def test_matmul_of_mixed_dtypes_promotes_and_keeps_input_dtypes_in_gradients(transb):
    a = chainer.Variable(numpy.array([[1.0, 2.0], [3.0, 4.0]], numpy.float16))
    b_value = numpy.array([[0.5, -1.0], [2.0, 0.25]], numpy.float64)
    b = chainer.Variable(b_value.T.copy() if transb else b_value)
    y = F.matmul(a, b, transb=transb)
    assert y.dtype == numpy.float64
    numpy.testing.assert_allclose(y.array, a.array.astype(numpy.float64) @ b_value)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert a.grad.dtype == numpy.float16 and b.grad.dtype == numpy.float64
    numpy.testing.assert_allclose(a.grad, numpy.ones((2, 2)) @ b_value.T, rtol=1e-3)
    b_grad = a.array.astype(numpy.float64).T @ numpy.ones((2, 2))
    numpy.testing.assert_allclose(b.grad, b_grad.T if transb else b_grad)


def test_matmul_rejects_integer_operands():
    with pytest.raises(type_check.InvalidType, match=r"b\.dtype\.kind == f"):
        F.matmul(numpy.ones((2, 2), numpy.float32), numpy.ones((2, 2), numpy.int32))


def test_batch_matmul_rejects_1d_operands():
    with (
        pytest.warns(DeprecationWarning),
        pytest.raises(ValueError, match=r"ndim >= 2, got shape \(3,\)"),
    ):
        F.batch_matmul(numpy.ones(3), numpy.ones((1, 3, 1)))
