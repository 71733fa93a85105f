"""Creation routines against NumPy."""

import numpy
import pytest

import chainerx
import chainerx.testing


@pytest.mark.parametrize("dtype", chainerx.testing.all_dtypes)
@pytest.mark.parametrize("shape", [(), (0,), (2, 3)])
def test_empty_zeros_ones_full(dtype, shape):
    assert chainerx.empty(shape, dtype).shape == shape
    for chx_fn, np_fn in [(chainerx.zeros, numpy.zeros), (chainerx.ones, numpy.ones)]:
        chainerx.testing.assert_array_equal_ex(chx_fn(shape, dtype), np_fn(shape, dtype))
    chainerx.testing.assert_array_equal_ex(
        chainerx.full(shape, 1, dtype), numpy.full(shape, 1, dtype)
    )


def test_default_dtypes():
    # Shape-only creation uses Chainer's default float32; values keep NumPy's own dtypes.
    assert chainerx.zeros((2,)).dtype == numpy.float32
    assert chainerx.eye(2).dtype == numpy.float32
    assert chainerx.full((2,), 1.5).dtype == numpy.float64
    assert chainerx.full((2,), 7).dtype == numpy.int64
    assert chainerx.full((2,), True).dtype == numpy.bool_
    assert chainerx.arange(3).dtype == numpy.int64
    assert chainerx.arange(3.0).dtype == numpy.float64


def test_like_functions_copy_shape_dtype_and_device():
    a = chainerx.ones((2, 3), "int16", device="native:1")
    for fn in (chainerx.empty_like, chainerx.zeros_like, chainerx.ones_like):
        b = fn(a)
        assert (b.shape, b.dtype, b.device) == ((2, 3), numpy.int16, a.device)
    chainerx.testing.assert_array_equal(chainerx.full_like(a, 4), numpy.full((2, 3), 4, "int16"))
    assert chainerx.zeros_like(a, device="native:0").device.name == "native:0"


@pytest.mark.parametrize(
    "args", [(5,), (2, 7), (1, 2, 0.25), (5, 0, -2), (3, 1), (0.5, 3), (-3, 3, 2)]
)
def test_arange(args):
    chainerx.testing.assert_allclose_ex(chainerx.arange(*args), numpy.arange(*args))


@chainerx.testing.numpy_chainerx_allclose()
def test_arange_with_dtype(xp):
    return xp.arange(1, 10, 3, dtype="float32")


@pytest.mark.parametrize(("num", "endpoint"), [(5, True), (5, False), (1, True), (0, True)])
def test_linspace(num, endpoint):
    chainerx.testing.assert_allclose(
        chainerx.linspace(-1, 2, num, endpoint, dtype="float64"),
        numpy.linspace(-1, 2, num, endpoint),
        rtol=1e-12,
    )
    with pytest.raises(chainerx.ChainerxError, match="must be non-negative, got -1"):
        chainerx.linspace(0, 1, -1)


@pytest.mark.parametrize("dtype", ["int16", "uint8", "int64", "bool_"])
def test_linspace_to_integers_rounds_down(dtype):
    # NumPy (1.20 on) floors integer samples: -13.3 -> -14, not -13.
    expected = numpy.linspace(-13.3, 352.5, 7, dtype=numpy.float64)
    expected = expected.astype(dtype) if dtype == "bool_" else numpy.floor(expected).astype(dtype)
    chainerx.testing.assert_array_equal_ex(
        chainerx.linspace(-13.3, 352.5, 7, dtype=dtype), expected
    )


def test_array_without_copy_returns_the_array_itself():
    a = chainerx.arange(6).reshape(2, 3)
    assert chainerx.array(a, copy=False) is a
    assert chainerx.array(a, dtype=a.dtype, copy=False, device=a.device) is a
    assert chainerx.array(a) is not a
    assert chainerx.array(a, dtype="float32", copy=False) is not a
    assert chainerx.array(a, copy=False, device="native:1").device.name == "native:1"
    assert chainerx.asarray(a) is a
    assert chainerx.ascontiguousarray(a) is a
    strided = a.T
    contiguous = chainerx.ascontiguousarray(strided)
    assert contiguous is not strided and contiguous.is_contiguous
    chainerx.testing.assert_array_equal(contiguous, numpy.arange(6).reshape(2, 3).T)


@pytest.mark.parametrize(("n", "m", "k"), [(3, None, 0), (2, 4, 1), (4, 2, -1), (3, 3, 5)])
def test_eye_tri(n, m, k):
    chainerx.testing.assert_array_equal_ex(
        chainerx.eye(n, m, k, dtype="int32"), numpy.eye(n, m, k, dtype="int32")
    )
    chainerx.testing.assert_array_equal_ex(
        chainerx.tri(n, m, k, dtype="float64"), numpy.tri(n, m, k)
    )
    chainerx.testing.assert_array_equal_ex(chainerx.identity(n, "bool_"), numpy.identity(n, bool))


@pytest.mark.parametrize("k", [-2, -1, 0, 1, 3])
def test_diag_tril_triu(k):
    m_np = numpy.arange(12.0).reshape(3, 4)
    m = chainerx.array(m_np)
    chainerx.testing.assert_array_equal(chainerx.diag(m, k), numpy.diag(m_np, k))
    chainerx.testing.assert_array_equal(
        chainerx.diag(chainerx.array([1.0, 2.0]), k), numpy.diag([1.0, 2.0], k)
    )
    chainerx.testing.assert_array_equal(
        chainerx.diagflat(m[:2, :2], k), numpy.diagflat(m_np[:2, :2], k)
    )
    chainerx.testing.assert_array_equal(chainerx.tril(m, k), numpy.tril(m_np, k))
    chainerx.testing.assert_array_equal(chainerx.triu(m, k), numpy.triu(m_np, k))
    with pytest.raises(chainerx.DimensionError, match="diag: input must be 1-D or 2-D"):
        chainerx.diag(chainerx.zeros((2, 2, 2)))


@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid(indexing):
    x, y, z = numpy.arange(3.0), numpy.arange(2.0), numpy.arange(4.0)
    got = chainerx.meshgrid(
        chainerx.array(x), chainerx.array(y), chainerx.array(z), indexing=indexing
    )
    for g, e in zip(got, numpy.meshgrid(x, y, z, indexing=indexing), strict=True):
        chainerx.testing.assert_array_equal_ex(g, e, strides_check=False)
    with pytest.raises(chainerx.ChainerxError, match="indexing must be 'xy' or 'ij', got 'yx'"):
        chainerx.meshgrid(chainerx.array(x), indexing="yx")


def test_numpy_parsed_constructors(tmp_path):
    chainerx.testing.assert_array_equal(chainerx.frombuffer(b"\x01\x02", "uint8"), [1, 2])
    chainerx.testing.assert_array_equal(chainerx.fromiter(range(3), "int32"), [0, 1, 2])
    chainerx.testing.assert_array_equal(
        chainerx.fromstring("1 2 3", "float32", sep=" "), [1, 2, 3]
    )
    chainerx.testing.assert_array_equal(
        chainerx.fromfunction(lambda i, j: i + j, (2, 2)), [[0, 1], [1, 2]]
    )
    path = tmp_path / "data.txt"
    path.write_text("1 2\n3 4\n")
    chainerx.testing.assert_array_equal(chainerx.loadtxt(path), [[1, 2], [3, 4]])
    binary = tmp_path / "data.bin"
    numpy.arange(3, dtype="int16").tofile(binary)
    loaded = chainerx.fromfile(binary, "int16", device="native:1")
    assert loaded.device.name == "native:1"
    chainerx.testing.assert_array_equal(loaded, [0, 1, 2])


def test_negative_dimensions_are_rejected():
    with pytest.raises(
        chainerx.DimensionError, match=r"negative dimensions are not allowed: got shape \(2, -1\)"
    ):
        chainerx.zeros((2, -1))
    with pytest.raises(chainerx.DimensionError, match="invalid shape 'a'"):
        chainerx.zeros("a")


def test_random_sampling():
    n = chainerx.random.normal(2.0, 0.5, size=(2000,))
    assert n.dtype == numpy.float64
    n_np = chainerx.to_numpy(n)
    assert abs(n_np.mean() - 2.0) < 0.05 and abs(n_np.std() - 0.5) < 0.05
    u = chainerx.to_numpy(chainerx.random.uniform(-1, 3, (1000,), dtype="float32"))
    assert u.dtype == numpy.float32 and u.min() >= -1 and u.max() < 3 and abs(u.mean() - 1) < 0.15
    with pytest.raises(chainerx.DtypeError, match="floating dtypes only, got int32"):
        chainerx.random.uniform(size=(2,), dtype="int32")


def test_random_is_an_importable_module():
    # v7 code imports it by path (``import chainerx.random``, ``from chainerx.random import``).
    import importlib

    module = importlib.import_module("chainerx.random")
    assert module is chainerx.random
    assert module.uniform(0, 1, (3, 0)).shape == (3, 0)
    assert callable(module.normal) and module.__all__ == ["normal", "uniform"]
