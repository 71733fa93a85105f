"""dot, matmul and chainerx.linalg against NumPy."""

import re

import numpy
import pytest

import chainerx
import chainerx.linalg
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


# ---- chainerx.linalg ----

HAS_LAPACK = chainerx.build_info()["blas"] == "openblas"
requires_lapack = pytest.mark.skipif(not HAS_LAPACK, reason="built without LAPACK")
# Comparisons with NumPy's float64 results of small well-conditioned problems.
TOL = {"float32": 1e-4, "float64": 1e-10}
ODD_SHAPES = [(1, 1), (3, 5), (5, 3), (4, 4), (0, 0), (3, 0), (0, 3)]


def _chx(x, layout="contiguous"):
    """x as a chainerx array: contiguous, transposed or strided (a non-contiguous view)."""
    if layout == "transposed":
        return chainerx.array(numpy.ascontiguousarray(x.T)).T
    if layout == "strided":
        base = numpy.zeros(x.shape[:-1] + (2 * x.shape[-1],), x.dtype)
        base[..., ::2] = x
        return chainerx.array(base)[..., ::2]
    return chainerx.array(x)


def _np(a):
    return chainerx.to_numpy(a)


def _spd(n, dtype="float64", seed=0):
    a = numpy.random.default_rng(seed).uniform(-1, 1, (n, n))
    return (a @ a.T + n * numpy.eye(n)).astype(dtype)


def _sym_with_gaps(n, seed=0):
    """A symmetric matrix with eigenvalues 1, 2, ..., n (well separated for gradients)."""
    q, _ = numpy.linalg.qr(numpy.random.default_rng(seed).normal(size=(n, n)))
    return q @ numpy.diag(numpy.arange(1.0, n + 1)) @ q.T


def _assert_orthonormal_columns(q, tol):
    numpy.testing.assert_allclose(q.T @ q, numpy.eye(q.shape[1]), atol=tol)


@requires_lapack
@pytest.mark.parametrize("n", [0, 1, 3, 6])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cholesky(n, dtype, layout):
    a_np = _spd(n, dtype, seed=n)
    got = chainerx.linalg.cholesky(_chx(a_np, layout))
    assert got.dtype == dtype and got.shape == (n, n)
    lower = _np(got).astype(numpy.float64)
    assert not numpy.triu(lower, 1).any()
    numpy.testing.assert_allclose(lower @ lower.T, a_np, rtol=TOL[dtype], atol=TOL[dtype])
    numpy.testing.assert_allclose(
        lower, numpy.linalg.cholesky(a_np.astype(numpy.float64)), atol=TOL[dtype]
    )


@requires_lapack
def test_cholesky_reads_the_lower_triangle():
    a_np = _spd(4)
    a_np[numpy.triu_indices(4, 1)] = 100.0  # not symmetric; the upper triangle is ignored
    expected = numpy.linalg.cholesky(a_np)
    numpy.testing.assert_allclose(_np(chainerx.linalg.cholesky(a_np)), expected, rtol=1e-12)


@requires_lapack
@pytest.mark.parametrize("shape", ODD_SHAPES)
@pytest.mark.parametrize("mode", ["reduced", "complete", "r", "raw"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_qr(shape, mode, dtype):
    a_np = numpy.random.default_rng(1).uniform(-1, 1, shape).astype(dtype)
    got = chainerx.linalg.qr(_chx(a_np, "transposed"), mode)
    expected = numpy.linalg.qr(a_np.astype(numpy.float64), mode)
    tol = TOL[dtype]
    if mode == "raw":
        h, tau = got
        assert h.shape == expected[0].shape and tau.shape == expected[1].shape
        numpy.testing.assert_allclose(_np(h), expected[0], atol=tol)
        numpy.testing.assert_allclose(_np(tau), expected[1], atol=tol)
        return
    r = _np(got if mode == "r" else got[1]).astype(numpy.float64)
    r_expected = expected if mode == "r" else expected[1]
    assert r.shape == r_expected.shape
    assert not numpy.tril(r, -1).any()
    # r is unique up to the signs of its rows.
    numpy.testing.assert_allclose(numpy.abs(r), numpy.abs(r_expected), atol=tol)
    if mode != "r":
        q = _np(got[0]).astype(numpy.float64)
        assert got[0].dtype == dtype and q.shape == expected[0].shape
        _assert_orthonormal_columns(q, tol)
        numpy.testing.assert_allclose(q @ r, a_np, atol=tol)


@requires_lapack
@pytest.mark.parametrize("shape", ODD_SHAPES)
@pytest.mark.parametrize("full_matrices", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_svd(shape, full_matrices, dtype, layout):
    a_np = numpy.random.default_rng(2).uniform(-1, 1, shape).astype(dtype)
    a = _chx(a_np, layout)
    u, s, vh = chainerx.linalg.svd(a, full_matrices)
    eu, es, evh = numpy.linalg.svd(a_np.astype(numpy.float64), full_matrices)
    assert (u.shape, s.shape, vh.shape) == (eu.shape, es.shape, evh.shape)
    assert u.dtype == s.dtype == vh.dtype == dtype
    tol = TOL[dtype]
    numpy.testing.assert_allclose(_np(s), es, atol=tol)
    numpy.testing.assert_allclose(_np(chainerx.linalg.svd(a, compute_uv=False)), es, atol=tol)
    u, vh = _np(u).astype(numpy.float64), _np(vh).astype(numpy.float64)
    _assert_orthonormal_columns(u, tol)
    _assert_orthonormal_columns(vh.T, tol)
    k = len(es)
    numpy.testing.assert_allclose(u[:, :k] * _np(s) @ vh[:k], a_np, atol=tol)


@requires_lapack
@pytest.mark.parametrize("n", [0, 1, 4, 6])
@pytest.mark.parametrize("uplo", ["L", "U", "l"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_eigh(n, uplo, dtype, layout):
    # Not symmetric: only the triangle named by UPLO is read.
    a_np = numpy.random.default_rng(3).uniform(-1, 1, (n, n)).astype(dtype)
    a = _chx(a_np, layout)
    w, v = chainerx.linalg.eigh(a, uplo)
    eig = numpy.linalg.eigvalsh(a_np.astype(numpy.float64), uplo)
    tri = numpy.tril if uplo.upper() == "L" else numpy.triu
    sym = tri(a_np.astype(numpy.float64))
    sym = sym + tri(sym, -1 if uplo.upper() == "L" else 1).T
    assert w.dtype == v.dtype == dtype and v.shape == (n, n)
    tol = TOL[dtype]
    numpy.testing.assert_allclose(_np(w), eig, atol=tol)
    v = _np(v).astype(numpy.float64)
    _assert_orthonormal_columns(v, tol)
    numpy.testing.assert_allclose(sym @ v, v * eig, atol=tol)
    numpy.testing.assert_allclose(_np(chainerx.linalg.eigvalsh(a, UPLO=uplo)), eig, atol=tol)


@requires_lapack
@pytest.mark.parametrize("n", [0, 1, 4])
@pytest.mark.parametrize("b_shape", [(), (2,), (0,)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_solve(n, b_shape, dtype, layout):
    rng = numpy.random.default_rng(4)
    a_np = (rng.uniform(-1, 1, (n, n)) + 2 * numpy.eye(n)).astype(dtype)
    b_np = rng.uniform(-1, 1, (n, *b_shape)).astype(dtype)
    got = chainerx.linalg.solve(
        _chx(a_np, layout), _chx(b_np, layout if b_shape != (0,) else "contiguous")
    )
    expected = numpy.linalg.solve(a_np.astype(numpy.float64), b_np.astype(numpy.float64))
    assert got.shape == expected.shape and got.dtype == dtype
    numpy.testing.assert_allclose(_np(got), expected, rtol=TOL[dtype], atol=TOL[dtype])


@requires_lapack
def test_solve_promotes_dtypes():
    a = numpy.array([[2.0, 1.0], [1.0, 3.0]])
    b = numpy.array([1.0, 2.0])
    got = chainerx.linalg.solve(a.astype(numpy.float32), b)
    assert got.dtype == numpy.float64
    numpy.testing.assert_allclose(_np(got), numpy.linalg.solve(a, b), rtol=1e-12)


@requires_lapack
@pytest.mark.parametrize("n", [0, 1, 4, 7])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_inv(n, dtype, layout):
    a_np = (numpy.random.default_rng(5).uniform(-1, 1, (n, n)) + 2 * numpy.eye(n)).astype(dtype)
    got = chainerx.linalg.inv(_chx(a_np, layout))
    assert got.shape == (n, n) and got.dtype == dtype
    numpy.testing.assert_allclose(
        _np(got), numpy.linalg.inv(a_np.astype(numpy.float64)), rtol=TOL[dtype], atol=TOL[dtype]
    )


@requires_lapack
@pytest.mark.parametrize("shape", ODD_SHAPES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pinv(shape, dtype):
    a_np = numpy.random.default_rng(6).uniform(-1, 1, shape).astype(dtype)
    got = chainerx.linalg.pinv(_chx(a_np, "transposed"))
    expected = numpy.linalg.pinv(a_np.astype(numpy.float64), rcond=1e-15)
    assert got.shape == expected.shape and got.dtype == dtype
    numpy.testing.assert_allclose(_np(got), expected, rtol=TOL[dtype], atol=TOL[dtype])


@requires_lapack
def test_pinv_of_a_rank_deficient_matrix_drops_small_singular_values():
    rng = numpy.random.default_rng(7)
    a_np = numpy.outer(rng.uniform(1, 2, 4), rng.uniform(1, 2, 3))  # rank 1
    got = _np(chainerx.linalg.pinv(a_np, rcond=1e-10))
    numpy.testing.assert_allclose(got, numpy.linalg.pinv(a_np, rcond=1e-10), rtol=1e-10)
    numpy.testing.assert_allclose(a_np @ got @ a_np, a_np, rtol=1e-10)
    # With every singular value below the cutoff, the pseudo-inverse is zero.
    assert not _np(chainerx.linalg.pinv(a_np, rcond=2.0)).any()


def _square(n, seed):
    return numpy.random.default_rng(seed).uniform(-1, 1, (n, n)) + 3 * numpy.eye(n)


@requires_lapack
@pytest.mark.parametrize("n", [1, 3])
def test_cholesky_gradients(n):
    check_backward(chainerx.linalg.cholesky, [_spd(n, seed=n)], double_backprop=True)


def _concat(*arrays):
    return chainerx.concatenate([a.reshape(-1) for a in arrays])


@requires_lapack
@pytest.mark.parametrize("shape", [(4, 3), (3, 3), (3, 4), (1, 1)])
def test_qr_gradients(shape):
    a = numpy.random.default_rng(8).uniform(-1, 1, shape) + numpy.eye(*shape)
    check_backward(lambda x: _concat(*chainerx.linalg.qr(x)), [a], double_backprop=True)
    check_backward(lambda x: chainerx.linalg.qr(x, "r"), [a], double_backprop=True)
    if shape[0] <= shape[1]:  # complete is reduced then
        check_backward(lambda x: _concat(*chainerx.linalg.qr(x, "complete")), [a])


def _svd_invariants(x):
    # Functions of the singular vectors that do not depend on their signs.
    u, s, vh = chainerx.linalg.svd(x, full_matrices=False)
    w = chainerx.arange(1.0, s.shape[0] + 1)
    return _concat(s, (u * w) @ vh, (u * w) @ u.T, (vh.T * w) @ vh)


@requires_lapack
@pytest.mark.parametrize("shape", [(4, 3), (3, 3), (3, 4), (1, 1)])
def test_svd_gradients(shape):
    a = numpy.random.default_rng(9).uniform(-1, 1, shape)
    check_backward(_svd_invariants, [a], double_backprop=True)
    check_backward(lambda x: chainerx.linalg.svd(x, compute_uv=False), [a], double_backprop=True)
    if shape[0] == shape[1]:  # full matrices are the reduced ones then
        check_backward(lambda x: chainerx.linalg.svd(x)[1], [a])


@requires_lapack
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh_gradients(uplo):
    rng = numpy.random.default_rng(10)
    # Eigenvalues 1..4 of the triangle read; noise in the other one, which must not matter.
    a = _sym_with_gaps(4) + (numpy.triu if uplo == "L" else numpy.tril)(
        rng.normal(size=(4, 4)), 1 if uplo == "L" else -1
    )
    c = chainerx.array([1.0, 2.0, 3.0, 4.0])

    def invariants(x):
        w, v = chainerx.linalg.eigh(x, uplo)
        return _concat(w, (v * c) @ v.T)

    check_backward(invariants, [a], double_backprop=True)
    check_backward(lambda x: chainerx.linalg.eigvalsh(x, uplo), [a], double_backprop=True)


@requires_lapack
@pytest.mark.parametrize("b_shape", [(3,), (3, 2)])
def test_solve_gradients(b_shape):
    b = numpy.random.default_rng(11).uniform(-1, 1, b_shape)
    check_backward(chainerx.linalg.solve, [_square(3, 12), b], double_backprop=True)


@requires_lapack
def test_inv_gradients():
    check_backward(chainerx.linalg.inv, [_square(3, 13)], double_backprop=True)


@requires_lapack
@pytest.mark.parametrize("shape", [(4, 3), (3, 3), (3, 4)])
def test_pinv_gradients(shape):
    a = numpy.random.default_rng(14).uniform(-1, 1, shape) + numpy.eye(*shape)
    check_backward(chainerx.linalg.pinv, [a], double_backprop=True)


@requires_lapack
def test_gradients_of_float32_inputs():
    a = chainerx.array(_spd(3, "float32")).require_grad()
    for y in (chainerx.linalg.cholesky(a), chainerx.linalg.inv(a), chainerx.linalg.eigvalsh(a)):
        (g,) = chainerx.grad([y], [a])
        assert g.dtype == numpy.float32 and g.shape == (3, 3)


@requires_lapack
@pytest.mark.parametrize(
    ("fn", "shape"),
    [
        (chainerx.linalg.cholesky, (0, 0)),
        (chainerx.linalg.inv, (0, 0)),
        (lambda a: chainerx.linalg.solve(a, chainerx.zeros((0, 2), "float64")), (0, 0)),
        (lambda a: chainerx.linalg.eigh(a)[1], (0, 0)),
        (chainerx.linalg.eigvalsh, (0, 0)),
        (lambda a: chainerx.linalg.qr(a)[0], (3, 0)),
        (lambda a: chainerx.linalg.svd(a, False)[0], (3, 0)),
        (lambda a: chainerx.linalg.svd(a, compute_uv=False), (0, 3)),
        (chainerx.linalg.pinv, (0, 3)),
    ],
)
def test_gradients_of_empty_matrices(fn, shape):
    a = chainerx.zeros(shape, "float64").require_grad()
    y = fn(a)
    (g,) = chainerx.grad([y], [a], grad_outputs=[chainerx.ones(y.shape, "float64")])
    assert g.shape == shape and g.dtype == numpy.float64


@requires_lapack
@pytest.mark.parametrize(
    ("fn", "shape", "match"),
    [
        (
            lambda x: chainerx.linalg.qr(x, "raw")[0],
            (3, 2),
            "gradient of mode='raw' is not implemented",
        ),
        (
            lambda x: chainerx.linalg.qr(x, "complete")[0],
            (3, 2),
            r"mode='complete' is not implemented for m > n .*use mode='reduced'",
        ),
        (
            lambda x: chainerx.linalg.svd(x)[0],
            (3, 2),
            r"full_matrices=True is not implemented for non-square .*use full_matrices=False",
        ),
    ],
)
def test_gradients_not_implemented(fn, shape, match):
    x = chainerx.array(numpy.random.default_rng(15).uniform(-1, 1, shape)).require_grad()
    y = fn(x)
    with pytest.raises(chainerx.NotImplementedError, match=match):
        chainerx.grad([y], [x])


LINALG_CALLS = {
    "cholesky": lambda a: chainerx.linalg.cholesky(a),
    "qr": lambda a: chainerx.linalg.qr(a),
    "svd": lambda a: chainerx.linalg.svd(a),
    "eigh": lambda a: chainerx.linalg.eigh(a),
    "eigvalsh": lambda a: chainerx.linalg.eigvalsh(a),
    "solve": lambda a: chainerx.linalg.solve(a, chainerx.ones(a.shape[:1], a.dtype)),
    "inv": lambda a: chainerx.linalg.inv(a),
    "pinv": lambda a: chainerx.linalg.pinv(a),
}
SQUARE_ONLY = ["cholesky", "eigh", "eigvalsh", "solve", "inv"]


@pytest.mark.parametrize("name", list(LINALG_CALLS))
@pytest.mark.parametrize("dtype", ["float16", "int32", "bool"])
def test_linalg_dtype_errors(name, dtype):
    with pytest.raises(
        chainerx.DtypeError, match=f"^{name}: float32 or float64 is required, but got {dtype}$"
    ):
        LINALG_CALLS[name](chainerx.zeros((2, 2), dtype))


@pytest.mark.parametrize("name", list(LINALG_CALLS))
@pytest.mark.parametrize("shape", [(3,), (2, 2, 2)])
def test_linalg_requires_2d(name, shape):
    with pytest.raises(
        chainerx.DimensionError,
        match=rf"^{name}: a 2-D array is required, but got shape {re.escape(str(shape))}$",
    ):
        LINALG_CALLS[name](chainerx.zeros(shape))


@pytest.mark.parametrize("name", SQUARE_ONLY)
def test_linalg_requires_square(name):
    with pytest.raises(
        chainerx.DimensionError,
        match=rf"^{name}: a square matrix is required, but got shape \(2, 3\)$",
    ):
        LINALG_CALLS[name](chainerx.zeros((2, 3)))


def test_solve_shape_and_device_errors():
    a = chainerx.eye(3)
    for b in (
        chainerx.zeros(2),
        chainerx.zeros((2, 2)),
        chainerx.zeros(()),
        chainerx.zeros((3, 1, 1)),
    ):
        with pytest.raises(
            chainerx.DimensionError,
            match=r"^solve: b must have shape \(3,\) or \(3, k\) for a of shape \(3, 3\), "
            r"but got shape",
        ):
            chainerx.linalg.solve(a, b)
    with pytest.raises(
        chainerx.DtypeError, match="^solve: float32 or float64 is required, but got int64$"
    ):
        chainerx.linalg.solve(a, chainerx.zeros(3, "int64"))
    with pytest.raises(chainerx.DeviceError):
        chainerx.linalg.solve(a, chainerx.zeros(3, device="native:1"))


def test_bad_mode_and_uplo():
    a = chainerx.eye(2)
    with pytest.raises(ValueError, match="^Unrecognized mode 'full'$"):
        chainerx.linalg.qr(a, "full")
    for uplo in ("X", "LU", ""):
        with pytest.raises(ValueError, match="^UPLO argument must be 'L' or 'U'$"):
            chainerx.linalg.eigh(a, uplo)
        with pytest.raises(ValueError, match="^UPLO argument must be 'L' or 'U'$"):
            chainerx.linalg.eigvalsh(a, UPLO=uplo)


@requires_lapack
@pytest.mark.parametrize("name", ["solve", "inv"])
def test_singular_matrix(name):
    a = chainerx.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
    with pytest.raises(
        chainerx.ChainerxError,
        match=rf"^{name}: the matrix is singular \(U\[2, 2\] of its LU factorization is zero\)$",
    ):
        LINALG_CALLS[name](a)


@requires_lapack
def test_cholesky_not_positive_definite():
    a = chainerx.array([[4.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    with pytest.raises(
        chainerx.ChainerxError,
        match=r"^cholesky: the matrix is not positive definite "
        r"\(its leading minor of order 2 is not positive\)$",
    ):
        chainerx.linalg.cholesky(a)


@requires_lapack
@pytest.mark.parametrize("name", list(LINALG_CALLS))
def test_nan_input(name):
    a = chainerx.array(numpy.full((2, 2), numpy.nan))
    with pytest.raises(chainerx.ChainerxError, match=r": the input contains NaN$"):
        LINALG_CALLS[name](a)


@pytest.mark.skipif(HAS_LAPACK, reason="built with LAPACK")
def test_linalg_without_lapack():
    with pytest.raises(chainerx.NotImplementedError, match="chainerx.linalg needs LAPACK"):
        chainerx.linalg.inv(chainerx.eye(2))


def test_linalg_module():
    import importlib

    module = importlib.import_module("chainerx.linalg")
    assert module is chainerx.linalg
    assert sorted(module.__all__) == [
        "cholesky",
        "eigh",
        "eigvalsh",
        "inv",
        "pinv",
        "qr",
        "solve",
        "svd",
    ]
    assert all(getattr(module, name).__doc__ for name in module.__all__)
