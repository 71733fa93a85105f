"""conv and conv_transpose against direct NumPy loops, their gradients and their errors."""

import numpy
import pytest

import chainerx
import chainerx.testing
from chainerx.testing._gradient import check_backward

_TOL = {"float16": 1e-2, "float32": 1e-5, "float64": 1e-12}


def conv_outsize(size, k, s, p, cover_all):
    """Chainer's get_conv_outsize."""
    return (size + 2 * p - k + (s - 1 if cover_all else 0)) // s + 1


def _spatial(*slices):
    return (slice(None), slice(None), *slices)


def conv_reference(x, w, b, stride, pad, cover_all=False):
    """Each output position is the window of the zero-padded input times w, summed."""
    x, w = x.astype(numpy.float64), w.astype(numpy.float64)
    nd = x.ndim - 2
    ks, ins = w.shape[2:], x.shape[2:]
    outs = [conv_outsize(ins[i], ks[i], stride[i], pad[i], cover_all) for i in range(nd)]
    # cover_all's last windows may run past the padding on the far side.
    widths = [
        (pad[i], max(pad[i], (outs[i] - 1) * stride[i] + ks[i] - ins[i] - pad[i]))
        for i in range(nd)
    ]
    xp = numpy.pad(x, [(0, 0), (0, 0), *widths])
    y = numpy.zeros((x.shape[0], w.shape[0], *outs))
    axes = list(range(1, nd + 2))
    for o in numpy.ndindex(*outs):
        window = xp[
            _spatial(*(slice(o[i] * stride[i], o[i] * stride[i] + ks[i]) for i in range(nd)))
        ]
        y[_spatial(*o)] = numpy.tensordot(window, w, axes=(axes, axes))
    if b is not None:
        y += b.reshape((1, -1) + (1,) * nd)
    return y


def conv_transpose_reference(x, w, b, stride, pad, outsize=None):
    """Each input position adds x times w into a window of the padded output."""
    x, w = x.astype(numpy.float64), w.astype(numpy.float64)
    nd = x.ndim - 2
    ks, ins = w.shape[2:], x.shape[2:]
    if outsize is None:
        outsize = [stride[i] * (ins[i] - 1) + ks[i] - 2 * pad[i] for i in range(nd)]
    full = [max(outsize[i] + 2 * pad[i], (ins[i] - 1) * stride[i] + ks[i]) for i in range(nd)]
    y = numpy.zeros((x.shape[0], w.shape[1], *full))
    for i in numpy.ndindex(*ins):
        window = _spatial(*(slice(i[d] * stride[d], i[d] * stride[d] + ks[d]) for d in range(nd)))
        y[window] += numpy.tensordot(x[_spatial(*i)], w, axes=(1, 0))
    y = y[_spatial(*(slice(pad[d], pad[d] + outsize[d]) for d in range(nd)))]
    if b is not None:
        y += b.reshape((1, -1) + (1,) * nd)
    return y


def conv_weight_grad_reference(x, gy, ksize, stride, pad):
    """gw[o, c, k] = sum over n and output positions of gy times the input they saw."""
    nd = x.ndim - 2
    outs = gy.shape[2:]
    far = [
        max(pad[i], (outs[i] - 1) * stride[i] + ksize[i] - x.shape[i + 2] - pad[i])
        for i in range(nd)
    ]
    xp = numpy.pad(x, [(0, 0), (0, 0), *zip(pad, far, strict=True)])
    gw = numpy.zeros((gy.shape[1], x.shape[1], *ksize))
    for k in numpy.ndindex(*ksize):
        seen = xp[
            _spatial(*(slice(k[i], k[i] + outs[i] * stride[i], stride[i]) for i in range(nd)))
        ]
        gw[_spatial(*k)] = numpy.tensordot(
            gy, seen, axes=([0, *range(2, nd + 2)], [0, *range(2, nd + 2)])
        )
    return gw


def _tuple(v, nd):
    return (v,) * nd if isinstance(v, int) else tuple(v)


# (x shape, w shape, stride, pad, cover_all)
CONV_CASES = [
    ((2, 3, 9), (4, 3, 3), 2, 1, False),
    ((2, 3, 9), (4, 3, 4), 3, 1, True),
    ((1, 1, 5), (2, 1, 5), 1, 0, False),
    ((2, 3, 7, 6), (4, 3, 3, 2), (2, 1), (1, 0), False),
    ((2, 3, 7, 6), (4, 3, 3, 2), (2, 1), (1, 0), True),
    ((1, 2, 6, 5), (3, 2, 3, 3), 2, 0, True),
    ((1, 1, 3, 3), (2, 1, 2, 2), 1, 3, False),
    ((2, 2, 5, 4, 6), (3, 2, 2, 3, 2), (1, 2, 3), (1, 0, 2), False),
    ((1, 2, 5, 4, 6), (3, 2, 2, 3, 2), (3, 2, 4), (0, 1, 1), True),
]


@pytest.mark.parametrize(("x_shape", "w_shape", "stride", "pad", "cover_all"), CONV_CASES)
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("with_bias", [True, False])
def test_conv(x_shape, w_shape, stride, pad, cover_all, dtype, with_bias, make_input):
    x_np, x = make_input(x_shape, dtype, low=-1, high=1, seed=1)
    w_np, w = make_input(w_shape, dtype, low=-1, high=1, seed=2)
    b_np, b = make_input(w_shape[:1], dtype, low=-1, high=1, seed=3) if with_bias else (None, None)
    nd = len(x_shape) - 2
    y = chainerx.conv(x, w, b, stride=stride, pad=pad, cover_all=cover_all)
    expected = conv_reference(x_np, w_np, b_np, _tuple(stride, nd), _tuple(pad, nd), cover_all)
    assert y.dtype == dtype
    assert y.shape == expected.shape
    chainerx.testing.assert_allclose(y, expected, rtol=_TOL[dtype], atol=_TOL[dtype])


def test_conv_non_contiguous_inputs(layout, make_input):
    x_np, x = make_input((2, 3, 7, 6), "float64", seed=1, layout=layout)
    w_np, w = make_input((4, 3, 3, 2), "float64", seed=2, layout=layout)
    b_np, b = make_input((4,), "float64", seed=3, layout=layout)
    expected = conv_reference(x_np, w_np, b_np, (2, 1), (1, 0))
    chainerx.testing.assert_allclose(chainerx.conv(x, w, b, (2, 1), (1, 0)), expected, rtol=1e-12)
    expected = conv_transpose_reference(x_np, w_np.transpose(1, 0, 2, 3), None, (2, 1), (1, 0))
    got = chainerx.conv_transpose(x, w.transpose(1, 0, 2, 3), None, (2, 1), (1, 0))
    chainerx.testing.assert_allclose(got, expected, rtol=1e-12)


# (x shape, w shape, stride, pad)
CONV_TRANSPOSE_CASES = [
    ((2, 3, 4), (3, 2, 3), 2, 1),
    ((1, 1, 5), (1, 3, 1), 1, 0),
    ((2, 3, 4, 3), (3, 4, 3, 2), (2, 1), (1, 0)),
    ((1, 2, 3, 3), (2, 3, 4, 4), 3, 2),
    ((2, 2, 3, 2, 4), (2, 3, 2, 3, 2), (1, 2, 3), (1, 0, 1)),
]


@pytest.mark.parametrize(("x_shape", "w_shape", "stride", "pad"), CONV_TRANSPOSE_CASES)
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("with_bias", [True, False])
def test_conv_transpose(x_shape, w_shape, stride, pad, dtype, with_bias, make_input):
    x_np, x = make_input(x_shape, dtype, low=-1, high=1, seed=1)
    w_np, w = make_input(w_shape, dtype, low=-1, high=1, seed=2)
    b_np, b = (
        make_input(w_shape[1:2], dtype, low=-1, high=1, seed=3) if with_bias else (None, None)
    )
    nd = len(x_shape) - 2
    y = chainerx.conv_transpose(x, w, b, stride=stride, pad=pad)
    expected = conv_transpose_reference(x_np, w_np, b_np, _tuple(stride, nd), _tuple(pad, nd))
    assert y.dtype == dtype
    assert y.shape == expected.shape
    chainerx.testing.assert_allclose(y, expected, rtol=_TOL[dtype], atol=_TOL[dtype])


# Along axis 0 (input 4, kernel 3, stride 2) convolutions of 8, 9 and 10 give back 4 (8 only
# with cover_all); along axis 1 (stride 1) only the default 4 does.
@pytest.mark.parametrize("outsize", [(8, 4), (9, 4), (10, 4)])
def test_conv_transpose_outsize(outsize, make_input):
    x_np, x = make_input((2, 2, 4, 3), "float64", seed=1)
    w_np, w = make_input((2, 3, 3, 2), "float64", seed=2)
    b_np, b = make_input((3,), "float64", seed=3)
    y = chainerx.conv_transpose(x, w, b, stride=(2, 1), outsize=outsize)
    assert y.shape == (2, 3, *outsize)
    expected = conv_transpose_reference(x_np, w_np, b_np, (2, 1), (0, 0), outsize)
    chainerx.testing.assert_allclose(y, expected, rtol=1e-12)


@pytest.mark.parametrize(
    ("outsize", "message"),
    [
        (
            (7, 4),
            r"outsize \(7, 4\) does not fit x \(2, 2, 4, 3\) along spatial axis 0: a "
            r"convolution of size 7 with kernel 3, stride 2 and pad 0 gives 3 "
            r"\(3 with cover_all\), not 4",
        ),
        (
            (11, 4),
            r"along spatial axis 0: a convolution of size 11 with kernel 3, stride 2 and "
            r"pad 0 gives 5 \(5 with cover_all\), not 4",
        ),
        (
            (9, 5),
            r"along spatial axis 1: a convolution of size 5 with kernel 2, stride 1 and pad 0 "
            r"gives 4 \(4 with cover_all\), not 3",
        ),
        ((9, 0), r"along spatial axis 1: a convolution of size 0"),
        (
            (9,),
            r"conv_transpose: outsize must have one value per spatial axis of x "
            r"\(2, 2, 4, 3\), got \(9,\)",
        ),
    ],
)
def test_conv_transpose_bad_outsize(outsize, message):
    x = chainerx.zeros((2, 2, 4, 3))
    w = chainerx.zeros((2, 3, 3, 2))
    with pytest.raises(chainerx.DimensionError, match=message):
        chainerx.conv_transpose(x, w, stride=(2, 1), outsize=outsize)


@pytest.mark.parametrize("cover_all", [False, True])
def test_conv_transpose_is_the_adjoint_of_conv(cover_all, make_input):
    # <conv(x, w), y> == <x, conv_transpose(y, w)> when conv_transpose gives x's size.
    x_np, x = make_input((2, 3, 6, 7), "float64", seed=1)
    w_np, w = make_input((4, 3, 3, 2), "float64", seed=2)
    y_shape = chainerx.conv(x, w, stride=(2, 3), pad=1, cover_all=cover_all).shape
    y_np, y = make_input(y_shape, "float64", seed=3)
    lhs = (chainerx.to_numpy(chainerx.conv(x, w, None, (2, 3), 1, cover_all)) * y_np).sum()
    back = chainerx.conv_transpose(y, w, None, (2, 3), 1, outsize=(6, 7))
    numpy.testing.assert_allclose(lhs, (x_np * chainerx.to_numpy(back)).sum(), rtol=1e-12)


def test_conv_zero_sizes():
    w = chainerx.ones((4, 3, 2, 2))
    assert chainerx.conv(chainerx.zeros((0, 3, 5, 5)), w).shape == (0, 4, 4, 4)
    assert chainerx.conv_transpose(chainerx.zeros((0, 4, 4, 4)), w).shape == (0, 3, 5, 5)
    # No input channels: every output is the bias.
    b = chainerx.array([1.0, 2.0])
    y = chainerx.conv(chainerx.zeros((2, 0, 4)), chainerx.zeros((2, 0, 3)), b)
    chainerx.testing.assert_allclose(y, numpy.broadcast_to([[[1.0], [2.0]]], (2, 2, 2)))
    y = chainerx.conv_transpose(chainerx.zeros((2, 0, 4)), chainerx.zeros((0, 2, 3)), b)
    chainerx.testing.assert_allclose(y, numpy.broadcast_to([[[1.0], [2.0]]], (2, 2, 6)))


def test_conv_large_batch_and_its_gradients(make_input):
    # Big enough for the native kernels to split the batch into several GEMMs.
    x_np, x = make_input((67, 3, 30, 30), "float64", low=-1, high=1, seed=1)
    w_np, w = make_input((5, 3, 3, 3), "float64", low=-1, high=1, seed=2)
    x.require_grad()
    w.require_grad()
    y = chainerx.conv(x, w, stride=1, pad=1)
    chainerx.testing.assert_allclose(
        y, conv_reference(x_np, w_np, None, (1, 1), (1, 1)), rtol=1e-12, atol=1e-12
    )
    gy_np, gy = make_input(y.shape, "float64", seed=3)
    gx, gw = chainerx.grad([y], [x, w], grad_outputs=[gy])
    expected_gw = conv_weight_grad_reference(x_np, gy_np, (3, 3), (1, 1), (1, 1))
    chainerx.testing.assert_allclose(gw, expected_gw, rtol=1e-11, atol=1e-11)
    expected_gx = conv_transpose_reference(gy_np, w_np, None, (1, 1), (1, 1), (30, 30))
    chainerx.testing.assert_allclose(gx, expected_gx, rtol=1e-11, atol=1e-11)


@pytest.mark.parametrize(
    ("x_shape", "w_shape", "stride", "pad", "cover_all"),
    [
        ((2, 2, 5), (3, 2, 2), 2, 1, True),
        ((2, 2, 4, 3), (2, 2, 2, 2), (2, 1), (1, 0), False),
        ((1, 2, 5, 4), (2, 2, 3, 2), 2, 0, True),
        ((1, 1, 3, 3, 2), (2, 1, 2, 2, 1), 1, (1, 0, 0), False),
    ],
)
def test_conv_gradients(x_shape, w_shape, stride, pad, cover_all):
    rng = numpy.random.default_rng(5)
    inputs = [
        rng.uniform(-1, 1, x_shape),
        rng.uniform(-1, 1, w_shape),
        rng.uniform(-1, 1, w_shape[:1]),
    ]
    check_backward(
        lambda x, w, b: chainerx.conv(x, w, b, stride, pad, cover_all),
        inputs,
        double_backprop=True,
    )
    check_backward(
        lambda x, w: chainerx.conv(x, w, None, stride, pad, cover_all),
        inputs[:2],
        double_backprop=True,
    )


@pytest.mark.parametrize(
    ("x_shape", "w_shape", "stride", "pad", "outsize"),
    [
        ((2, 2, 3), (2, 3, 2), 2, 1, None),
        ((2, 2, 3, 2), (2, 3, 2, 2), (2, 1), (1, 0), None),
        ((1, 2, 3, 2), (2, 2, 3, 2), (2, 1), (1, 0), (6, 3)),
        ((1, 1, 2, 2, 2), (1, 2, 2, 1, 2), (1, 2, 1), 0, None),
    ],
)
def test_conv_transpose_gradients(x_shape, w_shape, stride, pad, outsize):
    rng = numpy.random.default_rng(6)
    inputs = [
        rng.uniform(-1, 1, x_shape),
        rng.uniform(-1, 1, w_shape),
        rng.uniform(-1, 1, w_shape[1:2]),
    ]
    check_backward(
        lambda x, w, b: chainerx.conv_transpose(x, w, b, stride, pad, outsize),
        inputs,
        double_backprop=True,
    )


def test_conv_float16_gradients_are_float16(make_input):
    x_np, x = make_input((2, 2, 5, 5), "float16", low=-1, high=1, seed=1)
    w_np, w = make_input((3, 2, 3, 3), "float16", low=-1, high=1, seed=2)
    x.require_grad()
    w.require_grad()
    y = chainerx.conv(x, w, pad=1)
    gx, gw = chainerx.grad([y], [x, w], grad_outputs=[chainerx.ones(y.shape, "float16")])
    assert gx.dtype == gw.dtype == "float16"
    ones = numpy.ones(y.shape)
    expected_gx = conv_transpose_reference(ones, w_np, None, (1, 1), (1, 1), (5, 5))
    chainerx.testing.assert_allclose(gx, expected_gx, rtol=1e-2, atol=1e-2)
    expected_gw = conv_weight_grad_reference(
        x_np.astype(numpy.float64), ones, (3, 3), (1, 1), (1, 1)
    )
    chainerx.testing.assert_allclose(gw, expected_gw, rtol=1e-2, atol=2e-2)


@pytest.mark.parametrize(
    ("x_dtype", "w_dtype", "b_dtype", "expected"),
    [
        ("float32", "float64", None, "float64"),
        ("float16", "float32", None, "float32"),
        ("float32", "float32", "float64", "float64"),
        ("float16", "float16", "float32", "float32"),
    ],
)
@pytest.mark.parametrize("routine", ["conv", "conv_transpose"])
def test_mixed_dtypes_promote(x_dtype, w_dtype, b_dtype, expected, routine, make_input):
    x_np, x = make_input((2, 3, 5, 4), x_dtype, low=-1, high=1, seed=1)
    w_np, w = make_input((3, 3, 2, 2), w_dtype, low=-1, high=1, seed=2)
    b_np, b = make_input((3,), b_dtype, seed=3) if b_dtype else (None, None)
    reference = conv_reference if routine == "conv" else conv_transpose_reference
    y = getattr(chainerx, routine)(x, w, b, stride=(2, 1))
    assert y.dtype == expected
    chainerx.testing.assert_allclose(
        y, reference(x_np, w_np, b_np, (2, 1), (0, 0)), rtol=1e-5, atol=1e-5
    )


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint8", "bool_"])
def test_integer_and_bool_inputs(dtype, make_input):
    # As v7: computed exactly (in float64) and wrapped to the integer dtype like integer math.
    x_np, x = make_input((2, 3, 5, 4), dtype, low=-2, high=2, seed=11)
    w_np, w = make_input((4, 3, 2, 3), dtype, low=-2, high=2, seed=12)
    y = chainerx.conv(x, w, None, (2, 1), (1, 0))
    assert y.dtype == dtype
    exact = conv_reference(x_np, w_np, None, (2, 1), (1, 0))
    expected = exact != 0 if dtype == "bool_" else exact.astype(numpy.int64).astype(dtype)
    chainerx.testing.assert_array_equal(y, expected)
    yt = chainerx.conv_transpose(x, w.transpose(1, 0, 2, 3), None, (2, 1), (1, 0))
    exact_t = conv_transpose_reference(x_np, w_np.transpose(1, 0, 2, 3), None, (2, 1), (1, 0))
    assert yt.dtype == dtype
    chainerx.testing.assert_array_equal(
        yt, exact_t != 0 if dtype == "bool_" else exact_t.astype(numpy.int64).astype(dtype)
    )


def test_integer_results_wrap():
    x = chainerx.array(numpy.full((1, 1, 3), 100, numpy.int8))
    w = chainerx.array(numpy.ones((1, 1, 2), numpy.int8))
    chainerx.testing.assert_array_equal(chainerx.conv(x, w), numpy.array([[[-56, -56]]], "int8"))


@pytest.mark.parametrize("with_bias", [True, False])
def test_no_spatial_axes(with_bias):
    # x (batch, channels): conv is x @ w.T (+ b), conv_transpose x @ w (+ b), both differentiable.
    rng = numpy.random.default_rng(13)
    x, w, b = rng.uniform(-1, 1, (2, 3)), rng.uniform(-1, 1, (4, 3)), rng.uniform(-1, 1, (4,))
    bias = chainerx.array(b) if with_bias else None
    y = chainerx.conv(chainerx.array(x), chainerx.array(w), bias)
    chainerx.testing.assert_allclose(y, x @ w.T + (b if with_bias else 0), rtol=1e-12)
    yt = chainerx.conv_transpose(chainerx.array(x), chainerx.array(w.T), bias)
    chainerx.testing.assert_allclose(yt, x @ w.T + (b if with_bias else 0), rtol=1e-12)
    check_backward(lambda a, v: chainerx.conv(a, v) ** 2, [x, w], double_backprop=True)
    check_backward(lambda a, v: chainerx.conv_transpose(a, v) ** 2, [x, w.T], double_backprop=True)


@pytest.mark.parametrize(
    ("routine", "x_shape", "w_shape", "b_shape", "kwargs", "message"),
    [
        (
            "conv",
            (3,),
            (4, 3),
            None,
            {},
            r"^conv: x must have a batch and a channel axis, got shape \(3,\)$",
        ),
        (
            "conv",
            (2, 3, 5, 5),
            (4, 3, 3),
            None,
            {},
            r"^conv: w must have as many dimensions as x, got x \(2, 3, 5, 5\) and w \(4, 3, 3\)$",
        ),
        (
            "conv",
            (2, 3, 5, 5),
            (4, 2, 3, 3),
            None,
            {},
            r"^conv: x \(2, 3, 5, 5\) has 3 channels but w \(4, 2, 3, 3\) takes 2 \(axis 1\)$",
        ),
        (
            "conv_transpose",
            (2, 3, 5, 5),
            (4, 3, 3, 3),
            None,
            {},
            r"^conv_transpose: x \(2, 3, 5, 5\) has 3 channels but w \(4, 3, 3, 3\) takes 4 "
            r"\(axis 0\)$",
        ),
        (
            "conv",
            (2, 3, 5, 5),
            (4, 3, 3, 3),
            (5,),
            {},
            r"^conv: b must have shape \(4,\) to match w \(4, 3, 3, 3\), got \(5,\)$",
        ),
        (
            "conv",
            (2, 3, 5, 5),
            (4, 3, 3, 3),
            (1, 4),
            {},
            r"^conv: b must have shape \(4,\) to match w \(4, 3, 3, 3\), got \(1, 4\)$",
        ),
        (
            "conv_transpose",
            (2, 3, 5, 5),
            (3, 4, 3, 3),
            (3,),
            {},
            r"^conv_transpose: b must have shape \(4,\) to match w \(3, 4, 3, 3\), got \(3,\)$",
        ),
        (
            "conv",
            (2, 3, 5, 5),
            (4, 3, 3, 3),
            None,
            {"stride": (1, 1, 1)},
            r"^conv: stride must have one value per spatial axis of x \(2, 3, 5, 5\), "
            r"got \(1, 1, 1\)$",
        ),
        (
            "conv_transpose",
            (2, 3, 5, 5),
            (3, 4, 3, 3),
            None,
            {"pad": (1,)},
            r"^conv_transpose: pad must have one value per spatial axis of x \(2, 3, 5, 5\), "
            r"got \(1,\)$",
        ),
        (
            "conv",
            (2, 3, 5, 5),
            (4, 3, 3, 3),
            None,
            {"stride": (0, 1)},
            r"^conv: stride values must be at least 1, got \(0, 1\)$",
        ),
        (
            "conv",
            (2, 3, 5, 5),
            (4, 3, 3, 3),
            None,
            {"pad": -1},
            r"^conv: pad values must be at least 0, got \(-1, -1\)$",
        ),
        (
            "conv",
            (2, 3, 5, 5),
            (4, 3, 0, 3),
            None,
            {},
            r"^conv: kernel sizes must be positive, got w \(4, 3, 0, 3\)$",
        ),
        (
            "conv",
            (1, 1, 5, 3),
            (1, 1, 3, 5),
            None,
            {},
            r"^conv: the output would have size -1 along spatial axis 1 \(input 3, kernel 5, "
            r"stride 1, pad 0\)$",
        ),
        (
            "conv",
            (1, 1, 5, 3),
            (1, 1, 3, 6),
            None,
            {"stride": 2, "pad": 1},
            r"^conv: the output would have size 0 along spatial axis 1 \(input 3, kernel 6, "
            r"stride 2, pad 1\)$",
        ),
        (
            "conv_transpose",
            (1, 1, 1),
            (1, 1, 1),
            None,
            {"pad": 1},
            r"^conv_transpose: the output would have size -1 along spatial axis 0 \(input 1, "
            r"kernel 1, stride 1, pad 1\)$",
        ),
    ],
)
def test_dimension_errors(routine, x_shape, w_shape, b_shape, kwargs, message):
    x = chainerx.zeros(x_shape)
    w = chainerx.zeros(w_shape)
    b = None if b_shape is None else chainerx.zeros(b_shape)
    with pytest.raises(chainerx.DimensionError, match=message):
        getattr(chainerx, routine)(x, w, b, **kwargs)


def test_cover_all_lets_a_window_overhang():
    # A kernel longer than the padded input still gives one output with cover_all (as Chainer).
    x_np = numpy.arange(3.0).reshape(1, 1, 3)
    w_np = numpy.ones((1, 1, 5))
    y = chainerx.conv(chainerx.array(x_np), chainerx.array(w_np), stride=3, cover_all=True)
    chainerx.testing.assert_allclose(y, conv_reference(x_np, w_np, None, (3,), (0,), True))
    assert y.shape == (1, 1, 1)


def test_argument_types():
    x = chainerx.zeros((1, 1, 4, 4))
    w = chainerx.zeros((1, 1, 2, 2))
    with pytest.raises(TypeError, match=r"^stride must be an int or a sequence of ints, got 'a'$"):
        chainerx.conv(x, w, stride="a")
    with pytest.raises(
        TypeError, match=r"^pad must be an int or a sequence of ints, got \(1.5, 1\)$"
    ):
        chainerx.conv(x, w, pad=(1.5, 1))
    with pytest.raises(
        TypeError, match=r"^outsize must be an int or a sequence of ints, got 2.0$"
    ):
        chainerx.conv_transpose(x, w, outsize=2.0)
    # numpy integers are ints; an int outsize applies to every axis.
    assert chainerx.conv(x, w, stride=numpy.int64(2)).shape == (1, 1, 2, 2)
    assert chainerx.conv_transpose(x, w, outsize=5).shape == (1, 1, 5, 5)


def test_device_mismatch():
    x = chainerx.zeros((1, 1, 4, 4), device="native:0")
    w = chainerx.zeros((1, 1, 2, 2), device="native:1")
    with pytest.raises(chainerx.DeviceError, match="same device, got native:0 and native:1"):
        chainerx.conv(x, w)
    with pytest.raises(chainerx.DeviceError, match="same device, got native:0 and native:1"):
        chainerx.conv_transpose(x, chainerx.zeros((1, 1, 2, 2)), w[0, 0, 0])
