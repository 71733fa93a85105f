"""sparse_matmul with chainer.utils.CooMatrix operands."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check, testing, utils
from chainer.functions.math import sparse_matmul
from chainer.utils import type_check

# Entries stored per matrix: more than any 3 x 4 matrix has, so padding is always present.
_LDNZ = 13


def _sparse(shape, dtype):
    x = numpy.random.uniform(-1, 1, shape)
    x[numpy.random.uniform(size=shape) < 0.5] = 0
    return x.astype(dtype)


def _coo(dense, data):
    """A CooMatrix of ``dense``'s pattern whose entries are ``data`` (a variable in tests)."""
    pattern = utils.to_coo(dense, ldnz=_LDNZ)
    matrix = utils.CooMatrix(pattern.data.array, pattern.row, pattern.col, pattern.shape)
    matrix.data = data
    return matrix


def _matmul_by_loops(a, b):
    m, k = a.shape[-2:]
    n = b.shape[-1]
    y = numpy.zeros(a.shape[:-2] + (m, n))
    for batch in numpy.ndindex(*a.shape[:-2]):
        for i, j, r in numpy.ndindex(m, n, k):
            y[batch + (i, j)] += a[batch + (i, r)] * b[batch + (r, j)]
    return y


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "batch": [(), (2,)],
            "transa": [False, True],
            "transb": [False, True],
            "sparse_side": ["a", "b"],
        }
    )
)
@testing.inject_backend_tests(None, [{}])
class TestSparseMatMul(testing.FunctionTestCase):
    def setUp(self):
        m, k, n = 3, 4, 2
        self.a_shape = self.batch + ((k, m) if self.transa else (m, k))
        self.b_shape = self.batch + ((n, k) if self.transb else (k, n))
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 1e-2, "rtol": 1e-2}
            self.check_backward_options = {"atol": 5e-2, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-2, "rtol": 5e-2}

    def generate_inputs(self):
        a = numpy.random.uniform(-1, 1, self.a_shape).astype(self.dtype)
        b = numpy.random.uniform(-1, 1, self.b_shape).astype(self.dtype)
        # The sparse side's input is its entries (padding included); the pattern is fixed.
        if self.sparse_side == "a":
            self.pattern = _sparse(self.a_shape, self.dtype)
            return utils.to_coo(self.pattern, ldnz=_LDNZ).data.array, b
        self.pattern = _sparse(self.b_shape, self.dtype)
        return a, utils.to_coo(self.pattern, ldnz=_LDNZ).data.array

    def forward(self, inputs, device):
        if self.sparse_side == "a":
            a, b = _coo(self.pattern, inputs[0]), inputs[1]
        else:
            a, b = inputs[0], _coo(self.pattern, inputs[1])
        return (F.sparse_matmul(a, b, self.transa, self.transb),)

    def forward_expected(self, inputs):
        if self.sparse_side == "a":
            a, b = self.pattern, inputs[1]
        else:
            a, b = inputs[0], self.pattern
        a, b = a.astype(numpy.float64), b.astype(numpy.float64)
        if self.transa:
            a = a.swapaxes(-1, -2)
        if self.transb:
            b = b.swapaxes(-1, -2)
        return (_matmul_by_loops(a, b).astype(self.dtype),)


def test_padding_entries_get_no_gradient():
    dense = numpy.array([[0.0, 2.0], [1.0, 0.0]])
    a = utils.to_coo(dense, ldnz=4, requires_grad=True)
    y = F.sparse_matmul(a, numpy.ones((2, 3)))
    F.sum(y).backward()
    numpy.testing.assert_array_equal(a.row, [0, 1, -1, -1])
    numpy.testing.assert_array_equal(a.data.grad, [3.0, 3.0, 0.0, 0.0])


def test_operand_combinations_and_shapes_are_checked():
    coo = utils.to_coo(numpy.eye(2))
    with pytest.raises(ValueError, match=r"exactly one CooMatrix operand, got a: ndarray"):
        F.sparse_matmul(numpy.eye(2), numpy.eye(2))
    with pytest.raises(ValueError, match=r"got a: CooMatrix, b: CooMatrix"):
        F.sparse_matmul(coo, coo)
    with pytest.raises(type_check.InvalidType, match=r"dn\.shape\[-2\] == 2"):
        F.sparse_matmul(coo, numpy.ones((3, 2)))
    with pytest.raises(type_check.InvalidType, match=r"dn\.dtype\.kind == f"):
        F.sparse_matmul(coo, numpy.ones((2, 2), numpy.int32))


@pytest.mark.parametrize("sparse_side", ["a", "b"])
def test_mixed_dtypes_give_the_common_dtype_and_gradients_in_each_input_dtype(sparse_side):
    dense_a = numpy.array([[0.0, 2.0], [1.0, 0.0]], numpy.float16)
    dense_b = numpy.array([[1.0, 3.0], [0.5, 0.0]], numpy.float64)
    if sparse_side == "a":
        coo = utils.to_coo(dense_a, requires_grad=True)
        other = chainer.Variable(dense_b)
        y = F.sparse_matmul(coo, other)
    else:
        coo = utils.to_coo(dense_b, requires_grad=True)
        other = chainer.Variable(dense_a)
        y = F.sparse_matmul(other, coo)
    assert y.dtype == numpy.float64
    numpy.testing.assert_allclose(y.array, dense_a.astype(numpy.float64) @ dense_b)
    F.sum(y).backward()
    assert coo.data.grad.dtype == coo.data.dtype
    assert other.grad.dtype == other.dtype


@testing.fix_random()
@pytest.mark.parametrize("transa", [False, True])
@pytest.mark.parametrize("transb", [False, True])
@pytest.mark.parametrize("transc", [False, True])
def test_coo_mat_mul_node_transposes_as_told(transa, transb, transc):
    a = _sparse((3, 4), numpy.float64)
    b = numpy.random.uniform(-1, 1, (4, 2))
    a_in = a.T.copy() if transa else a
    b_in = b.T.copy() if transb else b
    coo = utils.to_coo(a_in)
    node = sparse_matmul.CooMatMul(
        coo.row, coo.col, coo.shape, coo.order, transa=transa, transb=transb, transc=transc
    )
    expected = _matmul_by_loops(a, b)
    (y,) = node.apply((coo.data.array, b_in))
    numpy.testing.assert_allclose(y.array, expected.T if transc else expected)

    def op(data, dense):
        return node.apply((data, dense))[0]

    gy = numpy.random.uniform(-1, 1, y.shape)
    ggx = (numpy.random.uniform(-1, 1, coo.data.shape), numpy.random.uniform(-1, 1, b_in.shape))
    gradient_check.check_backward(op, (coo.data.array, b_in), gy)
    gradient_check.check_double_backward(op, (coo.data.array, b_in), gy, ggx)
