import re

import numpy
import pytest

from chainer import initializers

DTYPES = [numpy.float16, numpy.float32, numpy.float64]
TOLERANCE = {numpy.float16: 5e-3, numpy.float32: 1e-5, numpy.float64: 1e-12}


def _as_matrix(array):
    return array.astype(numpy.float64).reshape(len(array), -1)


def _reference(gaussian, scale):
    # The unique orthonormal factor with a positive-diagonal R, computed without QR: for a tall
    # A = QR, A^T A = R^T R, so R is the Cholesky factor and Q = A R^-1.
    tall = gaussian.shape[0] >= gaussian.shape[1]
    a = gaussian if tall else gaussian.T
    r = numpy.linalg.cholesky(a.T @ a).T
    q = a @ numpy.linalg.inv(r)
    return scale * (q if tall else q.T)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(3, 5), (4, 4), (3, 2, 4), (2, 3, 2, 2)])
def test_rows_orthonormal_when_wide(dtype, shape):
    array = numpy.empty(shape, dtype)
    assert initializers.Orthogonal(2.0, dtype)(array) is None
    w = _as_matrix(array)
    numpy.testing.assert_allclose(w @ w.T, 4.0 * numpy.eye(len(w)), atol=4 * TOLERANCE[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 3), (6, 2, 2), (9, 1)])
def test_columns_orthonormal_when_tall(dtype, shape):
    array = numpy.empty(shape, dtype)
    initializers.Orthogonal(0.5, dtype)(array)
    w = _as_matrix(array)
    numpy.testing.assert_allclose(w.T @ w, 0.25 * numpy.eye(w.shape[1]), atol=TOLERANCE[dtype])


@pytest.mark.parametrize("shape", [(3, 7), (7, 3), (4, 2, 3), (5, 5)])
def test_values_follow_numpy_random_seed(shape):
    array = numpy.empty(shape)
    numpy.random.seed(4)
    initializers.Orthogonal(1.5)(array)
    matrix_shape = (shape[0], int(numpy.prod(shape[1:])))
    gaussian = numpy.random.RandomState(4).normal(size=matrix_shape)
    numpy.testing.assert_allclose(array, _reference(gaussian, 1.5).reshape(shape), atol=1e-10)


def test_rng_random_state_and_generator():
    for make_rng in (numpy.random.RandomState, numpy.random.default_rng):
        array = numpy.empty((4, 6), numpy.float32)
        numpy.random.seed(0)
        initializers.Orthogonal(rng=make_rng(9))(array)
        assert numpy.random.uniform() == numpy.random.RandomState(0).uniform()
        expected = _reference(make_rng(9).normal(size=(4, 6)), 1.1)
        numpy.testing.assert_allclose(array, expected, rtol=1e-6, atol=1e-6)


def test_zero_dim_gets_scale_with_random_sign():
    signs = set()
    for seed in range(20):
        array = numpy.empty((), numpy.float32)
        initializers.Orthogonal(3.0, rng=numpy.random.RandomState(seed))(array)
        assert abs(float(array)) == 3.0
        assert numpy.sign(array) == numpy.sign(numpy.random.RandomState(seed).normal())
        signs.add(float(numpy.sign(array)))
    assert signs == {-1.0, 1.0}


def test_distribution_is_not_sign_biased():
    # Without the sign fix from R, LAPACK's convention would bias the diagonal of Q.
    diagonal = numpy.empty((400, 3))
    rng = numpy.random.RandomState(2)
    for i in range(400):
        array = numpy.empty((3, 3))
        initializers.Orthogonal(1.0, rng=rng)(array)
        diagonal[i] = numpy.diag(array)
    assert numpy.all(numpy.abs(diagonal.mean(axis=0)) < 0.15)


@pytest.mark.parametrize(
    ("mode", "shape"),
    [
        ("auto", (2, 5)),
        ("auto", (5, 2)),
        ("projection", (2, 5)),
        ("projection", (3, 3)),
        ("embedding", (5, 2)),
        ("embedding", (3, 3)),
        ("basis", (3, 3)),
        ("basis", (4, 2, 2)),
    ],
)
def test_modes_accept(mode, shape):
    array = numpy.empty(shape)
    initializers.Orthogonal(1.0, mode=mode)(array)
    w = _as_matrix(array)
    gram = w @ w.T if w.shape[0] <= w.shape[1] else w.T @ w
    numpy.testing.assert_allclose(gram, numpy.eye(len(gram)), atol=1e-12)


@pytest.mark.parametrize(
    ("mode", "shape", "dims"),
    [
        ("projection", (5, 2), "2-dim input and 5-dim output"),
        ("embedding", (2, 5), "5-dim input and 2-dim output"),
        ("embedding", (2, 3, 2), "6-dim input and 2-dim output"),
        ("basis", (2, 5), "5-dim input and 2-dim output"),
        ("basis", (5, 2), "2-dim input and 5-dim output"),
    ],
)
def test_modes_reject(mode, shape, dims):
    array = numpy.zeros(shape)
    message = f"cannot make an orthogonal {mode} for shape {re.escape(str(shape))}, seen as {dims}"
    with pytest.raises(ValueError, match=message):
        initializers.Orthogonal(mode=mode)(array)
    numpy.testing.assert_array_equal(array, 0)


def test_invalid_mode():
    with pytest.raises(ValueError, match="mode must be one of 'auto', 'projection', .*got 'rows'"):
        initializers.Orthogonal(mode="rows")


def test_empty_array():
    with pytest.raises(ValueError, match=r"cannot initialize an empty array, got shape \(0, 3\)"):
        initializers.Orthogonal()(numpy.empty((0, 3)))


def test_defaults_and_dtype_mismatch():
    orthogonal = initializers.Orthogonal()
    assert (orthogonal.scale, orthogonal.mode, orthogonal.dtype, orthogonal.rng) == (
        1.1,
        "auto",
        None,
        None,
    )
    with pytest.raises(ValueError, match="created for dtype float16.*has dtype float64"):
        initializers.Orthogonal(dtype=numpy.float16)(numpy.empty((2, 2)))


def test_unexpected_keyword():
    with pytest.raises(TypeError, match=r"Orthogonal got unexpected keyword argument\(s\) 'seed'"):
        initializers.Orthogonal(seed=0)
