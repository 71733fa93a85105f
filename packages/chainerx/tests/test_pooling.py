"""max_pool and average_pool against direct loops over the windows."""

import itertools

import numpy
import pytest

import chainerx
import chainerx.testing
from chainerx.testing._gradient import check_backward


def _out_size(n, k, s, p, cover_all):
    return (n + 2 * p - k + (s - 1 if cover_all else 0)) // s + 1


def _as_tuple(value, nsp):
    return (value,) * nsp if isinstance(value, int) else tuple(value)


def _pool_reference(x, ksize, stride, pad, cover_all, reduce):
    """reduce(values of the window inside x, window size with padding) for every window."""
    nsp = x.ndim - 2
    ksize, pad = _as_tuple(ksize, nsp), _as_tuple(pad, nsp)
    stride = ksize if stride is None else _as_tuple(stride, nsp)
    out_extent = [
        _out_size(x.shape[d + 2], ksize[d], stride[d], pad[d], cover_all) for d in range(nsp)
    ]
    out = numpy.empty(x.shape[:2] + tuple(out_extent))
    for b, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        for o in itertools.product(*[range(n) for n in out_extent]):
            values = []
            for i in itertools.product(*[range(k) for k in ksize]):
                at = tuple(o[d] * stride[d] - pad[d] + i[d] for d in range(nsp))
                if all(0 <= at[d] < x.shape[d + 2] for d in range(nsp)):
                    values.append(float(x[(b, c) + at]))
            out[(b, c) + o] = reduce(values, int(numpy.prod(ksize)))
    return out


def _max(values, _):
    return max(values) if values else -numpy.inf


def _mean_zero(values, window):
    return sum(values) / window


def _mean_ignore(values, _):
    return sum(values) / len(values)


# (x shape, ksize, stride, pad, cover_all): 1-, 2- and 3-d, batch 1, odd sizes, windows that
# overlap, stride larger than the window, padding, and cover_all adding a partial window.
POOL_CASES = [
    ((2, 3, 7), 3, None, 0, False),
    ((2, 3, 7), 3, 2, 1, True),
    ((1, 2, 5, 6), 2, None, 0, False),
    ((1, 2, 5, 6), 2, None, 0, True),
    ((2, 3, 5, 7), (3, 2), (2, 1), (1, 0), False),
    ((2, 3, 5, 7), (3, 2), (2, 3), (1, 1), True),
    ((2, 1, 4, 5), 3, 1, 2, False),
    ((1, 2, 3, 5, 4), 2, (1, 2, 1), (0, 1, 1), False),
    ((1, 2, 3, 5, 4), (3, 2, 2), 2, 1, True),
]


@pytest.mark.parametrize(("shape", "ksize", "stride", "pad", "cover_all"), POOL_CASES)
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_max_pool(shape, ksize, stride, pad, cover_all, dtype, make_input, layout):
    x_np, x = make_input(shape, dtype, layout=layout)
    got = chainerx.max_pool(x, ksize, stride, pad, cover_all)
    expected = _pool_reference(x_np, ksize, stride, pad, cover_all, _max)
    assert got.dtype == x.dtype
    assert got.is_contiguous
    # The maximum is one of the inputs: exact in every dtype.
    chainerx.testing.assert_array_equal(got, expected.astype(dtype))


@pytest.mark.parametrize(("shape", "ksize", "stride", "pad"), [case[:4] for case in POOL_CASES])
@pytest.mark.parametrize("pad_mode", ["zero", "ignore"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_average_pool(shape, ksize, stride, pad, pad_mode, dtype, make_input, layout):
    x_np, x = make_input(shape, dtype, layout=layout)
    got = chainerx.average_pool(x, ksize, stride, pad, pad_mode)
    reduce = _mean_zero if pad_mode == "zero" else _mean_ignore
    expected = _pool_reference(x_np, ksize, stride, pad, False, reduce)
    assert got.dtype == x.dtype
    tol = {"float16": 2e-3, "float32": 1e-6, "float64": 1e-12}[dtype]
    chainerx.testing.assert_allclose(got, expected, rtol=tol, atol=tol)


def test_defaults():
    x = chainerx.array(numpy.arange(2 * 5 * 4, dtype="float32").reshape(1, 2, 5, 4))
    # stride defaults to ksize, pad to 0, cover_all to False and pad_mode to 'ignore'.
    assert chainerx.max_pool(x, 2).shape == (1, 2, 2, 2)
    assert chainerx.max_pool(x, numpy.int64(2), (numpy.int32(1), 2)).shape == (1, 2, 4, 2)
    ignore = chainerx.average_pool(x, 3, 1, 1)
    chainerx.testing.assert_allclose(ignore, chainerx.average_pool(x, 3, 1, 1, "ignore"))
    assert not numpy.allclose(
        chainerx.to_numpy(ignore), chainerx.to_numpy(chainerx.average_pool(x, 3, 1, 1, "zero"))
    )


def test_padding_never_wins():
    x_np = -1 - numpy.arange(2 * 3 * 3, dtype="float64").reshape(1, 2, 3, 3)
    got = chainerx.max_pool(chainerx.array(x_np), 3, 1, 1)
    chainerx.testing.assert_array_equal(got, _pool_reference(x_np, 3, 1, 1, False, _max))
    assert (chainerx.to_numpy(got) < 0).all()


def test_max_pool_nan_and_minus_infinity():
    # The first NaN of a window wins, as in NumPy's max; a window of -inf gives -inf, and its
    # gradient goes to its first element.
    nan, inf = numpy.nan, numpy.inf
    x = chainerx.array([[[1.0, nan, 2.0, nan, -inf, -inf, nan, -inf]]]).require_grad()
    y = chainerx.max_pool(x, 2)
    chainerx.testing.assert_array_equal(y, [[[nan, nan, -inf, nan]]])
    y.sum().backward()
    chainerx.testing.assert_array_equal(x.grad, [[[0, 1, 0, 1, 1, 0, 1, 0]]])


def test_window_wholly_in_padding():
    # pad >= ksize: corner windows see no input; max gives -inf, 'ignore' averaging gives 0.
    x = chainerx.ones((1, 1, 2), "float64")
    chainerx.testing.assert_array_equal(
        chainerx.max_pool(x, 1, 1, 1), [[[-numpy.inf, 1, 1, -numpy.inf]]]
    )
    chainerx.testing.assert_array_equal(chainerx.average_pool(x, 1, 1, 1), [[[0, 1, 1, 0]]])


def test_zero_size_batch():
    x = chainerx.zeros((0, 3, 4, 4), "float32")
    assert chainerx.max_pool(x, 2).shape == (0, 3, 2, 2)
    assert chainerx.average_pool(x, 2).shape == (0, 3, 2, 2)


def _distinct(shape, seed):
    """float64 values at least 1/size apart: no ties, even after numerical gradient steps."""
    size = int(numpy.prod(shape))
    return numpy.random.default_rng(seed).permutation(size).reshape(shape) / size - 0.5


GRAD_CASES = [
    ((2, 2, 5), 2, 1, 1, False),
    ((1, 2, 4, 5), 2, None, 0, True),
    ((2, 1, 5, 4), (3, 2), (2, 1), (1, 1), True),
    ((1, 1, 3, 4, 3), 2, 1, (1, 0, 1), False),
]


@pytest.mark.parametrize(("shape", "ksize", "stride", "pad", "cover_all"), GRAD_CASES)
def test_max_pool_gradients(shape, ksize, stride, pad, cover_all):
    def pool(x):
        return chainerx.max_pool(x, ksize, stride, pad, cover_all)

    check_backward(pool, [_distinct(shape, 1)], double_backprop=True)
    # Squaring makes the first derivative depend on x through the pooled values, so the second
    # derivative runs the gather (the backward of the scatter) and then the scatter again.
    check_backward(lambda x: pool(x) ** 2, [_distinct(shape, 2)], double_backprop=True)


@pytest.mark.parametrize(("shape", "ksize", "stride", "pad"), [case[:4] for case in GRAD_CASES])
@pytest.mark.parametrize("pad_mode", ["zero", "ignore"])
def test_average_pool_gradients(shape, ksize, stride, pad, pad_mode):
    def pool(x):
        return chainerx.average_pool(x, ksize, stride, pad, pad_mode)

    rng = numpy.random.default_rng(3)
    check_backward(pool, [rng.uniform(-1, 1, shape)], double_backprop=True)
    check_backward(lambda x: pool(x) ** 2, [rng.uniform(-1, 1, shape)], double_backprop=True)


def test_max_pool_backward_scatters_and_double_backward_gathers():
    x_np = _distinct((1, 1, 4, 4), 5)
    x = chainerx.array(x_np).require_grad()
    y = chainerx.max_pool(x, 2, 1, 0)
    gy_np = numpy.arange(1.0, 10.0).reshape(1, 1, 3, 3)
    gy = chainerx.array(gy_np).require_grad()
    (gx,) = chainerx.grad([y], [x], grad_outputs=[gy], enable_double_backprop=True)
    expected_gx = numpy.zeros_like(x_np)
    argmax = numpy.zeros((3, 3, 2), int)
    for i, j in itertools.product(range(3), range(3)):
        window = x_np[0, 0, i : i + 2, j : j + 2]
        di, dj = numpy.unravel_index(window.argmax(), (2, 2))
        argmax[i, j] = (i + di, j + dj)
        expected_gx[0, 0, i + di, j + dj] += gy_np[0, 0, i, j]
    chainerx.testing.assert_array_equal(gx, expected_gx)
    w_np = numpy.random.default_rng(6).uniform(-1, 1, x_np.shape)
    (ggy,) = chainerx.grad([(gx * chainerx.array(w_np)).sum()], [gy])
    expected_ggy = w_np[0, 0][argmax[..., 0], argmax[..., 1]].reshape(gy_np.shape)
    chainerx.testing.assert_allclose(ggy, expected_ggy, rtol=1e-15)


def test_max_pool_ties_send_the_gradient_to_the_first_element():
    x = chainerx.ones((1, 1, 2, 4), "float64").require_grad()
    chainerx.max_pool(x, 2).sum().backward()
    chainerx.testing.assert_array_equal(x.grad, [[[[1, 0, 1, 0], [0, 0, 0, 0]]]])


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_gradients_keep_the_dtype(dtype):
    # Overlapping windows accumulate in float32 for float16 (11 identical contributions per element
    # would round in float16).
    x = chainerx.zeros((1, 1, 1, 12), dtype).require_grad()
    chainerx.average_pool(x, (1, 11), 1, (0, 10), "zero").sum().backward()
    assert x.grad.dtype == dtype
    chainerx.testing.assert_allclose(x.grad, numpy.full((1, 1, 1, 12), 1.0), rtol=1e-3)


@pytest.mark.parametrize("routine", ["max_pool", "average_pool"])
def test_errors(routine):
    pool = getattr(chainerx, routine)
    x = chainerx.zeros((2, 3, 4, 5), "float32")
    with pytest.raises(
        chainerx.DimensionError,
        match=rf"{routine}: the window of size 6 does not fit spatial axis 1 of extent 5 "
        r"with padding 0",
    ):
        pool(x, (2, 6))
    with pytest.raises(
        chainerx.DimensionError,
        match=rf"{routine}: ksize \(2, 2, 2\) has 3 entries, "
        r"but x of shape \(2, 3, 4, 5\) has 2 spatial axes",
    ):
        pool(x, (2, 2, 2))
    with pytest.raises(chainerx.DimensionError, match=r"stride \(1,\) has 1 entries"):
        pool(x, 2, (1,))
    with pytest.raises(chainerx.DimensionError, match=r"pad \(1, 1, 1\) has 3 entries"):
        pool(x, 2, 1, (1, 1, 1))
    with pytest.raises(
        chainerx.DimensionError,
        match=r"every entry of stride must be at least 1, got stride \(0, 1\)",
    ):
        pool(x, 2, (0, 1))
    with pytest.raises(chainerx.DimensionError, match=r"every entry of ksize must be at least 1"):
        pool(x, 0)
    with pytest.raises(chainerx.DimensionError, match=r"every entry of pad must be at least 0"):
        pool(x, 2, 1, -1)
    with pytest.raises(
        chainerx.DimensionError, match=r"at least one spatial axis, got shape \(2, 3\)"
    ):
        pool(chainerx.zeros((2, 3), "float32"), 1)
    with pytest.raises(
        chainerx.DtypeError, match=rf"{routine} requires a floating dtype, got int32"
    ):
        pool(chainerx.zeros((2, 3, 4), "int32"), 2)


def test_average_pool_pad_mode_error():
    with pytest.raises(
        ValueError, match="average_pool: pad_mode must be 'zero' or 'ignore', got 'edge'"
    ):
        chainerx.average_pool(chainerx.zeros((1, 1, 4), "float32"), 2, pad_mode="edge")
