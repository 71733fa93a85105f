"""batch_norm and fixed_batch_norm against NumPy, with their running statistics and gradients."""

import numpy
import pytest

import chainerx
import chainerx.testing
from chainerx.testing._gradient import check_backward


def _reduced_axes(ndim, axis):
    if axis is None:  # v7's default: the batch axis only
        return (0,)
    return tuple(sorted(a % ndim for a in ((axis,) if isinstance(axis, int) else axis)))


def _channel_shape(shape, axes, keepdims=False):
    if keepdims:
        return tuple(1 if d in axes else n for d, n in enumerate(shape))
    return tuple(n for d, n in enumerate(shape) if d not in axes)


def _normalize_reference(x, gamma, beta, mean, var, eps, axes):
    """gamma * (x - mean) / sqrt(var + eps) + beta, channel by channel, in float64."""
    shape = _channel_shape(x.shape, axes, keepdims=True)
    x = x.astype(numpy.float64)
    params = [numpy.asarray(a, numpy.float64).reshape(shape) for a in (gamma, beta, mean, var)]
    gamma, beta, mean, var = params
    return gamma * (x - mean) / numpy.sqrt(var + eps) + beta


def _channel_arrays(shape, dtype, seed):
    rng = numpy.random.default_rng(seed)
    gamma = rng.uniform(0.5, 1.5, shape).astype(dtype)
    beta = rng.uniform(-1, 1, shape).astype(dtype)
    mean = rng.uniform(-1, 1, shape).astype(dtype)
    var = rng.uniform(0.5, 1.5, shape).astype(dtype)
    return gamma, beta, mean, var


_TOL = {"float16": 1e-2, "float32": 1e-5, "float64": 1e-12}

# (x shape, axis): the default axis (0,) on 2- to 5-d inputs, explicit ones including a kept
# innermost axis and negative axes, batch 1 and odd sizes.
BN_CASES = [
    ((5, 3), None),
    ((1, 3, 7), None),
    ((4, 3, 5, 2), None),
    ((2, 3, 3, 5, 2), None),
    ((4, 3, 5, 2), (0, 2, 3)),
    ((4, 3, 5, 2), 0),
    ((3, 4, 5), (0, -1)),
    ((6, 2, 3), (1, 2)),
]


@pytest.mark.parametrize(("shape", "axis"), BN_CASES)
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_batch_norm(shape, axis, dtype, make_input, layout):
    x_np, x = make_input(shape, dtype, seed=1, layout=layout)
    axes = _reduced_axes(len(shape), axis)
    channel = _channel_shape(shape, axes)
    gamma, beta, running_mean, running_var = _channel_arrays(channel, dtype, 2)
    rm, rv = chainerx.array(running_mean), chainerx.array(running_var)
    eps, decay = 1e-3, 0.8
    kwargs = {} if axis is None else {"axis": axis}
    y = chainerx.batch_norm(
        x, chainerx.array(gamma), chainerx.array(beta), rm, rv, eps=eps, decay=decay, **kwargs
    )

    x64 = x_np.astype(numpy.float64)
    mean = x64.mean(axis=axes)
    var = x64.var(axis=axes)
    m = x_np.size // max(int(numpy.prod(channel)), 1)
    expected = _normalize_reference(x_np, gamma, beta, mean, var, eps, axes)
    assert y.dtype == dtype
    assert y.shape == shape
    tol = _TOL[dtype]
    chainerx.testing.assert_allclose(y, expected, rtol=tol, atol=tol)
    # The running statistics move towards the batch's, the variance unbiased by m / (m - 1).
    expected_rm = decay * running_mean.astype(numpy.float64) + (1 - decay) * mean
    expected_rv = decay * running_var.astype(numpy.float64) + (1 - decay) * var * m / max(m - 1, 1)
    assert rm.dtype == dtype
    chainerx.testing.assert_allclose(rm, expected_rm, rtol=tol, atol=tol)
    chainerx.testing.assert_allclose(rv, expected_rv, rtol=tol, atol=tol)


def test_batch_norm_defaults():
    x_np = numpy.random.default_rng(0).uniform(-2, 2, (4, 3, 2)).astype("float32")
    gamma, beta, running_mean, running_var = _channel_arrays((3,), "float32", 1)
    rm, rv = chainerx.array(running_mean), chainerx.array(running_var)
    y = chainerx.batch_norm(
        chainerx.array(x_np), chainerx.array(gamma), chainerx.array(beta), rm, rv, axis=(0, 2)
    )
    # eps=2e-5 and decay=0.9.
    mean, var = x_np.mean(axis=(0, 2)), x_np.var(axis=(0, 2))
    expected = _normalize_reference(x_np, gamma, beta, mean, var, 2e-5, (0, 2))
    chainerx.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)
    chainerx.testing.assert_allclose(rm, 0.9 * running_mean + 0.1 * mean, rtol=1e-5)
    chainerx.testing.assert_allclose(rv, 0.9 * running_var + 0.1 * var * 8 / 7, rtol=1e-5)
    # Without axis, as in v7, only the batch axis is reduced: parameters of shape (3, 2).
    gamma2, beta2, mean2, var2 = _channel_arrays((3, 2), "float32", 5)
    y0 = chainerx.fixed_batch_norm(
        chainerx.array(x_np), *[chainerx.array(a) for a in (gamma2, beta2, mean2, var2)]
    )
    expected0 = _normalize_reference(x_np, gamma2, beta2, mean2, var2, 2e-5, (0,))
    chainerx.testing.assert_allclose(y0, expected0, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("routine", ["batch_norm", "fixed_batch_norm"])
@pytest.mark.parametrize(
    ("x_dtype", "param_dtype"), [("float32", "float16"), ("float16", "float64")]
)
def test_parameters_of_another_float_dtype(routine, x_dtype, param_dtype):
    # v7 accepts parameters of any float dtype: they are used in x's dtype, which y has, and
    # running statistics keep their own dtype.
    x_np = numpy.random.default_rng(3).uniform(-2, 2, (6, 3)).astype(x_dtype)
    params = _channel_arrays((3,), param_dtype, 8)
    arrays = [chainerx.array(a) for a in params]
    y = getattr(chainerx, routine)(chainerx.array(x_np), *arrays, eps=1e-3)
    assert y.dtype == x_dtype
    x64 = x_np.astype(numpy.float64)
    p64 = [a.astype(x_dtype).astype(numpy.float64) for a in params]
    mean, var = (x64.mean(0), x64.var(0)) if routine == "batch_norm" else (p64[2], p64[3])
    expected = _normalize_reference(x64, p64[0], p64[1], mean, var, 1e-3, (0,))
    chainerx.testing.assert_allclose(y, expected, rtol=1e-2, atol=1e-2)
    if routine == "batch_norm":
        assert arrays[2].dtype == param_dtype and arrays[3].dtype == param_dtype
        expected_rm = 0.9 * p64[2] + 0.1 * mean
        chainerx.testing.assert_allclose(arrays[2], expected_rm, rtol=1e-2, atol=1e-2)


def test_batch_norm_parameters_with_kept_axes_and_strided_running_statistics():
    # gamma and beta may keep the reduced axes as 1; the running statistics are updated through
    # non-contiguous views, leaving the elements between them alone.
    x_np = numpy.random.default_rng(0).uniform(-2, 2, (5, 3, 4))
    gamma = numpy.linspace(0.5, 1.5, 3).reshape(1, 3, 1)
    beta = numpy.linspace(-1, 1, 3).reshape(1, 3, 1)
    rm_base = chainerx.array(numpy.arange(6.0))
    rv_base = chainerx.array(numpy.arange(1.0, 7.0))
    rm, rv = rm_base[::2], rv_base[1::2]
    y = chainerx.batch_norm(
        chainerx.array(x_np), chainerx.array(gamma), chainerx.array(beta), rm, rv, axis=(0, 2)
    )
    mean, var = x_np.mean(axis=(0, 2)), x_np.var(axis=(0, 2))
    expected = _normalize_reference(x_np, gamma, beta, mean, var, 2e-5, (0, 2))
    chainerx.testing.assert_allclose(y, expected, rtol=1e-12)
    expected_rm = numpy.arange(6.0)
    expected_rm[::2] = 0.9 * expected_rm[::2] + 0.1 * mean
    expected_rv = numpy.arange(1.0, 7.0)
    expected_rv[1::2] = 0.9 * expected_rv[1::2] + 0.1 * var * 20 / 19
    chainerx.testing.assert_allclose(rm_base, expected_rm, rtol=1e-12)
    chainerx.testing.assert_allclose(rv_base, expected_rv, rtol=1e-12)


def test_batch_norm_variance_without_cancellation():
    # A large offset relative to the spread: a naive E[x^2] - E[x]^2 in float32 would lose it all.
    x_np = (1e4 + numpy.random.default_rng(0).uniform(-1, 1, (64, 2))).astype("float32")
    ones, zeros = chainerx.ones((2,), "float32"), chainerx.zeros((2,), "float32")
    rv = chainerx.zeros((2,), "float32")
    chainerx.batch_norm(
        chainerx.array(x_np), ones, zeros, chainerx.zeros((2,), "float32"), rv, decay=0
    )
    expected = x_np.astype(numpy.float64).var(axis=0) * 64 / 63
    chainerx.testing.assert_allclose(rv, expected, rtol=1e-5)


@pytest.mark.parametrize(("shape", "axis"), BN_CASES)
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_fixed_batch_norm(shape, axis, dtype, make_input, layout):
    x_np, x = make_input(shape, dtype, seed=3, layout=layout)
    axes = _reduced_axes(len(shape), axis)
    params = _channel_arrays(_channel_shape(shape, axes), dtype, 4)
    kwargs = {} if axis is None else {"axis": axis}
    y = chainerx.fixed_batch_norm(x, *[chainerx.array(a) for a in params], eps=1e-3, **kwargs)
    expected = _normalize_reference(x_np, *params, 1e-3, axes)
    assert y.dtype == dtype
    tol = _TOL[dtype]
    chainerx.testing.assert_allclose(y, expected, rtol=tol, atol=tol)


GRAD_CASES = [
    ((4, 3), None),
    ((3, 2, 4), None),
    ((2, 3, 2, 3), None),
    ((3, 4, 2), (0, 2)),
    ((3, 4, 2), 0),
]


def _batch_norm_function(shape, axis, square):
    channel = _channel_shape(shape, _reduced_axes(len(shape), axis))

    def f(x, gamma, beta):
        # Fresh running statistics on every call: their update must not change y.
        y = chainerx.batch_norm(
            x,
            gamma,
            beta,
            chainerx.zeros(channel, "float64"),
            chainerx.ones(channel, "float64"),
            eps=1e-3,
            axis=axis,
        )
        return y * y if square else y

    return f, channel


@pytest.mark.parametrize(("shape", "axis"), GRAD_CASES)
@pytest.mark.parametrize("square", [False, True])
def test_batch_norm_gradients(shape, axis, square):
    # Squaring y makes the first derivative's gy depend on the inputs, so the second-order check
    # also covers the derivative of batch_norm's backward with respect to gy.
    f, channel = _batch_norm_function(shape, axis, square)
    rng = numpy.random.default_rng(5)
    inputs = [
        rng.uniform(-1, 1, shape),
        rng.uniform(0.5, 1.5, channel),
        rng.uniform(-1, 1, channel),
    ]
    check_backward(f, inputs, eps=1e-5, atol=1e-5, rtol=1e-4, double_backprop=True)


@pytest.mark.parametrize(("shape", "axis"), GRAD_CASES)
def test_fixed_batch_norm_gradients(shape, axis):
    axes = _reduced_axes(len(shape), axis)
    channel = _channel_shape(shape, axes)
    rng = numpy.random.default_rng(6)
    inputs = [rng.uniform(-1, 1, shape)] + list(_channel_arrays(channel, "float64", 7))

    def f(x, gamma, beta, mean, var):
        y = chainerx.fixed_batch_norm(x, gamma, beta, mean, var, eps=1e-3, axis=axis)
        return y * y

    check_backward(f, inputs, eps=1e-5, atol=1e-5, rtol=1e-4, double_backprop=True)


def test_batch_norm_backward_in_float16():
    x_np = numpy.random.default_rng(0).uniform(-1, 1, (8, 3, 2))
    x = chainerx.array(x_np.astype("float16")).require_grad()
    gamma = chainerx.ones((3,), "float16").require_grad()
    beta = chainerx.zeros((3,), "float16").require_grad()
    y = chainerx.batch_norm(
        x,
        gamma,
        beta,
        chainerx.zeros((3,), "float16"),
        chainerx.ones((3,), "float16"),
        axis=(0, 2),
    )
    (y * chainerx.array(x_np.astype("float16"))).sum().backward()
    x64 = chainerx.array(x_np).require_grad()
    gamma64 = chainerx.ones((3,), "float64").require_grad()
    beta64 = chainerx.zeros((3,), "float64").require_grad()
    y64 = chainerx.batch_norm(
        x64,
        gamma64,
        beta64,
        chainerx.zeros((3,), "float64"),
        chainerx.ones((3,), "float64"),
        axis=(0, 2),
    )
    (y64 * chainerx.array(x_np)).sum().backward()
    for low, high in ((x, x64), (gamma, gamma64), (beta, beta64)):
        assert low.grad.dtype == numpy.float16
        chainerx.testing.assert_allclose(low.grad, high.grad, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("routine", ["batch_norm", "fixed_batch_norm"])
def test_errors(routine):
    func = getattr(chainerx, routine)

    def call(x, *params, **kwargs):
        params = list(params) + [chainerx.ones((3,), x.dtype)] * (4 - len(params))
        return func(x, *params, **kwargs)

    x = chainerx.zeros((2, 3, 4), "float32")
    with pytest.raises(
        chainerx.DtypeError, match=rf"{routine} requires a floating dtype, got int32"
    ):
        call(chainerx.zeros((2, 3, 4), "int32"))
    with pytest.raises(
        chainerx.DtypeError, match=rf"{routine}: gamma must have a floating dtype, got int32"
    ):
        call(x, chainerx.ones((3,), "int32"), axis=(0, 2))
    with pytest.raises(
        chainerx.DimensionError,
        match=rf"{routine}: beta must have shape \(3,\) "
        r"\(x's shape \(2, 3, 4\) without axes \(0, 2\)\), got \(4,\)",
    ):
        call(x, chainerx.ones((3,)), chainerx.ones((4,)), axis=(0, 2))
    # The default reduces over the batch axis only (as in v7).
    with pytest.raises(chainerx.DimensionError, match=r"must have shape \(3, 4\).*got \(3,\)"):
        call(x)


def test_batch_norm_running_statistics_must_not_be_in_a_graph():
    running_mean = chainerx.zeros((3,), "float32").require_grad()
    with pytest.raises(chainerx.ChainerxError, match=r"batch_norm \(update of running_mean\)"):
        chainerx.batch_norm(
            chainerx.zeros((2, 3), "float32"),
            chainerx.ones((3,), "float32"),
            chainerx.zeros((3,), "float32"),
            running_mean,
            chainerx.ones((3,), "float32"),
        )
