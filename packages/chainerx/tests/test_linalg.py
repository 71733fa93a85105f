"""dot and matmul against NumPy."""

import numpy
import pytest

import chainerx
import chainerx.testing
from chainerx.testing._gradient import check_backward


@pytest.mark.parametrize(
    ("shape1", "shape2"),
    [
        ((), ()),
        ((3,), (3,)),
        ((2, 3), (3,)),
        ((3,), (3, 4)),
        ((2, 3), (3, 4)),
        ((2, 3, 4), (5, 4, 2)),
        ((0, 3), (3, 2)),
        ((2, 0), (0, 3)),
        ((65, 130), (130, 600)),
    ],
)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "float16"])
def test_dot(shape1, shape2, dtype, make_input):
    a_np, a = make_input(shape1, dtype, seed=1)
    b_np, b = make_input(shape2, dtype, seed=2)
    expected = numpy.dot(a_np, b_np)
    got = chainerx.dot(a, b)
    assert got.dtype == expected.dtype
    # Sums of up to 130 products, accumulated in a different order than NumPy's BLAS.
    tol = {"float16": 1e-2, "float32": 1e-4}.get(dtype, 1e-12)
    chainerx.testing.assert_allclose(got, expected, rtol=tol, atol=tol)


def test_dot_non_contiguous_operands():
    a_np = numpy.arange(12.0).reshape(3, 4)
    a = chainerx.array(a_np)
    chainerx.testing.assert_allclose(chainerx.dot(a.T, a[:, ::-1]), a_np.T @ a_np[:, ::-1])


def test_dot_not_aligned():
    with pytest.raises(
        chainerx.DimensionError,
        match=r"shapes \(2, 3\) and \(2,\) not aligned: 3 \(dim 1\) != 2 \(dim 0\)",
    ):
        chainerx.dot(chainerx.zeros((2, 3)), chainerx.zeros((2,)))


@pytest.mark.parametrize(
    ("shape1", "shape2"),
    [((2, 3), (3, 2)), ((4, 2, 3), (3, 5)), ((3,), (2, 3, 4)), ((2, 1, 2, 3), (5, 3, 2))],
)
def test_matmul(shape1, shape2, make_input):
    a_np, a = make_input(shape1, "float64", seed=1)
    b_np, b = make_input(shape2, "float64", seed=2)
    chainerx.testing.assert_allclose(chainerx.matmul(a, b), numpy.matmul(a_np, b_np), rtol=1e-12)
    chainerx.testing.assert_allclose(a @ b, a_np @ b_np, rtol=1e-12)


def test_matmul_errors():
    with pytest.raises(chainerx.DimensionError, match="must not be 0-dimensional"):
        chainerx.matmul(chainerx.zeros(()), chainerx.zeros((2,)))


@pytest.mark.parametrize(
    ("shape1", "shape2"), [((2, 3), (3, 4)), ((3,), (3, 2)), ((2, 2, 3), (3,))]
)
def test_dot_gradients(shape1, shape2):
    rng = numpy.random.default_rng(7)
    check_backward(
        chainerx.dot,
        [rng.uniform(-1, 1, shape1), rng.uniform(-1, 1, shape2)],
        double_backprop=True,
    )


def test_matmul_gradients():
    rng = numpy.random.default_rng(8)
    check_backward(chainerx.matmul, [rng.uniform(-1, 1, (2, 2, 3)), rng.uniform(-1, 1, (3, 2))])
