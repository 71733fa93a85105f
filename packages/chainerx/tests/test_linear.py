"""linear against NumPy: shapes, batch axes, dtypes, layouts, gradients and errors."""

import numpy
import pytest

import chainerx
import chainerx.testing
from chainerx.testing._gradient import check_backward

# float16 is multiplied in float32 and rounded once.
_TOL = {"float16": 2e-3, "float32": 1e-5, "float64": 1e-12}


def _linear_ref(x, w, b, n_batch_axes):
    batch = x.shape[:n_batch_axes]
    y = x.reshape(batch + (w.shape[1],)) @ w.T
    return y if b is None else y + b


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize(
    ("x_shape", "n_out", "n_batch_axes"),
    [
        ((3, 4), 5, 1),
        ((1, 4), 2, 1),
        ((2, 3, 4), 5, 1),
        ((2, 3, 4), 5, 2),
        ((2, 3, 2, 2), 3, 2),
        ((0, 4), 3, 1),
        ((4, 0), 3, 1),
    ],
)
@pytest.mark.parametrize("with_bias", [True, False])
def test_linear(dtype, x_shape, n_out, n_batch_axes, with_bias, layout, make_input):
    n_in = int(numpy.prod(x_shape[n_batch_axes:]))
    x_np, x = make_input(x_shape, dtype, seed=1, layout=layout)
    w_np, w = make_input((n_out, n_in), dtype, seed=2, layout=layout)
    b_np, b = make_input((n_out,), dtype, seed=3) if with_bias else (None, None)
    y = chainerx.linear(x, w, b, n_batch_axes=n_batch_axes)
    expected = _linear_ref(
        x_np.astype(float),
        w_np.astype(float),
        None if b_np is None else b_np.astype(float),
        n_batch_axes,
    )
    assert y.dtype == numpy.dtype(dtype)
    assert y.shape == x_shape[:n_batch_axes] + (n_out,)
    chainerx.testing.assert_allclose(y, expected, rtol=_TOL[dtype], atol=_TOL[dtype])


def test_linear_keyword_names_and_promotion():
    x = chainerx.array([[1.0, 2.0]], numpy.float32)
    w = chainerx.array([[3.0, 4.0], [5.0, 6.0]], numpy.float64)
    y = chainerx.linear(x=x, W=w, b=chainerx.array([0.5, -0.5]), n_batch_axes=1)
    assert y.dtype == numpy.float64
    chainerx.testing.assert_allclose(y, [[11.5, 16.5]])


@pytest.mark.parametrize(
    ("x_shape", "n_batch_axes", "with_bias"),
    [((3, 4), 1, True), ((1, 2, 3), 1, False), ((2, 2, 3), 2, True)],
)
def test_linear_gradients(x_shape, n_batch_axes, with_bias):
    rng = numpy.random.default_rng(4)
    n_in = int(numpy.prod(x_shape[n_batch_axes:]))
    args = [rng.uniform(-1, 1, x_shape), rng.uniform(-1, 1, (2, n_in))]
    if with_bias:
        args.append(rng.uniform(-1, 1, (2,)))
    check_backward(
        lambda x, w, *b: chainerx.linear(x, w, *b, n_batch_axes=n_batch_axes),
        args,
        double_backprop=True,
    )


def test_linear_float16_gradients_keep_dtype():
    x = chainerx.ones((2, 3), numpy.float16).require_grad()
    w = chainerx.ones((4, 3), numpy.float16).require_grad()
    chainerx.linear(x, w).sum().backward()
    assert x.grad.dtype == numpy.float16 and w.grad.dtype == numpy.float16
    chainerx.testing.assert_allclose(x.grad, numpy.full((2, 3), 4.0))
    chainerx.testing.assert_allclose(w.grad, numpy.full((4, 3), 2.0))


def test_linear_errors():
    x = chainerx.zeros((2, 3))
    w = chainerx.zeros((4, 3))
    with pytest.raises(
        chainerx.DimensionError, match="linear: n_batch_axes must be at least 1, got 0"
    ):
        chainerx.linear(x, w, n_batch_axes=0)
    with pytest.raises(
        chainerx.DimensionError, match=r"W must be 2-D \(out_size, in_size\), got shape \(3,\)"
    ):
        chainerx.linear(x, chainerx.zeros((3,)))
    with pytest.raises(
        chainerx.DimensionError,
        match=r"linear: x of shape \(2, 3\) has 3 features per sample \(n_batch_axes=1\) "
        r"but W of shape \(4, 5\) takes 5",
    ):
        chainerx.linear(x, chainerx.zeros((4, 5)))
    with pytest.raises(
        chainerx.DimensionError,
        match=r"linear: x of shape \(2, 3\) needs axes after its 2 batch axes",
    ):
        chainerx.linear(x, w, n_batch_axes=2)
    with pytest.raises(
        chainerx.DimensionError,
        match=r"b must have shape \(4,\) to match W of shape \(4, 3\), got \(3,\)",
    ):
        chainerx.linear(x, w, chainerx.zeros((3,)))


@pytest.mark.parametrize(
    ("x_dtype", "w_dtype", "b_dtype"),
    [
        ("int32", "int32", "int32"),
        ("int8", "int8", None),
        ("uint8", "int16", "int8"),
        ("bool_", "bool_", None),
        ("bool_", "bool_", "uint8"),
        ("int8", "float32", "float16"),
    ],
)
def test_integer_bool_and_mixed_dtypes(x_dtype, w_dtype, b_dtype, make_input):
    # As v7 (and NumPy's dot): computed in the common dtype, integers wrapping on overflow.
    x_np, x = make_input((5, 3), x_dtype, low=-2, high=2, seed=21)
    w_np, w = make_input((4, 3), w_dtype, low=-2, high=2, seed=22)
    b_np, b = make_input((4,), b_dtype, low=-2, high=2, seed=23) if b_dtype else (None, None)
    y = chainerx.linear(x, w, b)
    dtype = numpy.result_type(*[a for a in (x_np, w_np, b_np) if a is not None])
    expected = x_np.astype(dtype) @ w_np.astype(dtype).T
    if b_np is not None:
        expected = expected + b_np.astype(dtype)
    assert y.dtype == dtype
    chainerx.testing.assert_allclose(y, expected, rtol=1e-6)
