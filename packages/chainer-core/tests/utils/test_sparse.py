"""chainer.utils.sparse: COO matrices."""

import numpy
import pytest

from chainer import utils
from chainer.utils import sparse

variable = pytest.importorskip("chainer.variable")


def _dense_reference(data, row, col, shape):
    """Accumulate the entries one by one, skipping padding."""
    batched = data.ndim == 2
    data, row, col = (numpy.atleast_2d(a) for a in (data, row, col))
    out = numpy.zeros((len(data), *shape), dtype=data.dtype)
    for b in range(len(data)):
        for value, r, c in zip(data[b], row[b], col[b]):
            if r >= 0:
                out[b, r, c] += value
    return out if batched else out[0]


def test_to_coo_single_matrix():
    x = numpy.array([[0, 2, 0], [-1, 0, 0]], numpy.float32)
    coo = utils.to_coo(x)
    assert isinstance(coo, utils.CooMatrix)
    assert isinstance(coo.data, variable.Variable)
    numpy.testing.assert_array_equal(coo.data.array, [2, -1])
    assert coo.data.dtype == numpy.float32
    numpy.testing.assert_array_equal(coo.row, [0, 1])
    numpy.testing.assert_array_equal(coo.col, [1, 0])
    assert coo.row.dtype == coo.col.dtype == numpy.int32
    assert coo.shape == (2, 3)
    assert coo.order == "C"
    assert not coo.data.requires_grad
    numpy.testing.assert_array_equal(coo.to_dense(), x)


def test_to_coo_pads_to_ldnz():
    x = numpy.array([[0, 2], [0, 0]], numpy.float64)
    coo = utils.to_coo(x, ldnz=3, requires_grad=True)
    numpy.testing.assert_array_equal(coo.data.array, [2, 0, 0])
    numpy.testing.assert_array_equal(coo.row, [0, -1, -1])
    numpy.testing.assert_array_equal(coo.col, [1, -1, -1])
    assert coo.data.requires_grad
    numpy.testing.assert_array_equal(coo.to_dense(), x)
    # ldnz smaller than the number of non-zeros is ignored.
    assert utils.to_coo(x, ldnz=0).data.shape == (1,)


def test_to_coo_batch():
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((4, 3, 5)) * (rng.random((4, 3, 5)) < 0.4)
    x[2] = 0
    coo = utils.to_coo(x)
    nnz = (x != 0).reshape(4, -1).sum(axis=1)
    assert coo.data.shape == coo.row.shape == coo.col.shape == (4, nnz.max())
    assert coo.shape == (3, 5)
    assert coo.order == "C"
    for b in range(4):
        valid = coo.row[b] >= 0
        assert valid.sum() == nnz[b]
        numpy.testing.assert_array_equal(coo.data.array[b][valid], x[b][x[b] != 0])
    numpy.testing.assert_array_equal(coo.to_dense(), x)


def test_to_dense_sums_duplicates_and_skips_padding():
    data = numpy.array([1.0, 2.0, 4.0, 0.0], numpy.float32)
    row = numpy.array([1, 0, 1, -1], numpy.int32)
    col = numpy.array([2, 0, 2, -1], numpy.int32)
    dense = sparse.CooMatrix(data, row, col, (2, 3)).to_dense()
    assert dense.dtype == numpy.float32
    numpy.testing.assert_array_equal(dense, _dense_reference(data, row, col, (2, 3)))
    numpy.testing.assert_array_equal(dense, [[2, 0, 0], [0, 0, 5]])
    batch = numpy.stack([data, data * 10])
    rows, cols = numpy.stack([row, col[::-1]]), numpy.stack([col, row[::-1]])
    # The second matrix pads in front: padding may sit anywhere.
    rows[1], cols[1] = [-1, 1, 0, 2], [-1, 1, 0, 0]
    numpy.testing.assert_array_equal(
        sparse.CooMatrix(batch, rows, cols, (3, 3)).to_dense(),
        _dense_reference(batch, rows, cols, (3, 3)),
    )


@pytest.mark.parametrize(
    ("row", "col", "order"),
    [
        ([0, 0, 1, 2], [0, 2, 1, 0], "C"),
        ([0, 1, 0, 2], [0, 0, 1, 1], "F"),
        ([1, 0, 2], [0, 1, 2], "F"),
        ([1, 0, 2], [1, 2, 0], "other"),
        ([0, 0], [1, 0], "other"),
        ([0, 1, -1, -1], [1, 0, -1, -1], "C"),
        ([0], [0], "C"),
        ([[0, 1], [0, 1]], [[0, 0], [1, 0]], "C"),
        ([[0, 1], [1, 0]], [[0, 0], [0, 1]], "F"),
        ([[0, 1], [1, 0]], [[0, 0], [1, 0]], "other"),
    ],
)
def test_get_order(row, col, order):
    assert utils.get_order(numpy.array(row), numpy.array(col)) == order


def test_order_given_or_found():
    data = numpy.ones(2, numpy.float32)
    row, col = numpy.array([1, 0]), numpy.array([0, 1])
    assert sparse.CooMatrix(data, row, col, (2, 2)).order == "F"
    assert sparse.CooMatrix(data, row, col, (2, 2), order="other").order == "other"


def test_get_order_errors():
    with pytest.raises(
        ValueError,
        match=r"row and col must have the same shape, got \(2,\) and "
        r"\(3,\)",
    ):
        utils.get_order(numpy.zeros(2), numpy.zeros(3))
    with pytest.raises(ValueError, match="invalid index combination of row and col"):
        utils.get_order(numpy.array([0, -1]), numpy.array([0, 1]))


@pytest.mark.parametrize(
    ("data", "row", "shape", "order", "message"),
    [
        (
            numpy.zeros((1, 1, 1)),
            numpy.zeros((1, 1, 1)),
            (2, 2),
            None,
            "ndim of data must be 1 or 2, got 3",
        ),
        (
            numpy.zeros(2),
            numpy.zeros(3),
            (2, 2),
            None,
            r"data, row and col must have the same shape, got \(2,\), \(3,\) and \(2,\)",
        ),
        (numpy.zeros(2), numpy.zeros(2), (2, 2, 2), None, r"shape must be two positive ints"),
        (numpy.zeros(2), numpy.zeros(2), (0, 2), None, r"shape must be two positive ints"),
        (numpy.zeros(2), numpy.zeros(2), (2, 2), "K", r"order must be 'C', 'F', 'other' or None"),
    ],
)
def test_coo_matrix_validation(data, row, shape, order, message):
    with pytest.raises(ValueError, match=message):
        sparse.CooMatrix(data, row, numpy.zeros(2), shape, order=order)


def test_to_coo_rank():
    with pytest.raises(ValueError, match="ndim of x must be 2 or 3, got 1"):
        utils.to_coo(numpy.zeros(3))
