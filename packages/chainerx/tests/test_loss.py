"""Loss routines against NumPy references: values, dtypes, layouts, gradients and errors."""

import numpy
import pytest

import chainerx
import chainerx.testing
from chainerx.testing._gradient import check_backward

FLOAT_DTYPES = ["float16", "float32", "float64"]
# Composed element-wise losses round once per step in float16.
_TOL = {"float16": 5e-3, "float32": 1e-5, "float64": 1e-12}


def _assert_close(got, expected, dtype):
    assert got.dtype == numpy.dtype(dtype)
    tol = _TOL[dtype]
    chainerx.testing.assert_allclose(got, expected, rtol=tol, atol=tol)


def _huber_ref(d, delta):
    a = numpy.abs(d)
    return numpy.where(a <= delta, 0.5 * d * d, delta * (a - 0.5 * delta))


def _gaussian_kl_ref(mean, ln_var):
    return (mean * mean + numpy.exp(ln_var) - ln_var - 1) / 2


def _sigmoid_ce_ref(x, t):
    # The textbook definition in float64, fine for the moderate logits it is used on.
    p = 1 / (1 + numpy.exp(-x))
    loss = -(t * numpy.log(p) + (1 - t) * numpy.log(1 - p))
    return numpy.where(t == -1, 0.0, loss)


def _softmax_ce_ref(x, t):
    x = x.astype(numpy.float64)
    e = numpy.exp(x - x.max(axis=1, keepdims=True))
    log_p = numpy.log(e / e.sum(axis=1, keepdims=True))
    picked = log_p[numpy.arange(len(t)), numpy.maximum(t, 0)] if len(t) else numpy.zeros(0)
    return numpy.where(t == -1, 0.0, -picked)


ELEMENTWISE = {
    "absolute_error": (chainerx.absolute_error, lambda a, b: numpy.abs(a - b)),
    "squared_error": (chainerx.squared_error, lambda a, b: (a - b) ** 2),
    "huber_loss": (
        lambda a, b: chainerx.huber_loss(a, b, 1.0),
        lambda a, b: _huber_ref(a - b, 1.0),
    ),
    "huber_loss_delta_0.5": (
        lambda a, b: chainerx.huber_loss(a, b, delta=0.5),
        lambda a, b: _huber_ref(a - b, 0.5),
    ),
    "gaussian_kl_divergence": (chainerx.gaussian_kl_divergence, _gaussian_kl_ref),
}


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("shape", [(3, 4), (1, 5), (2, 3, 2), (0, 3)])
def test_elementwise_losses(name, dtype, shape, layout, make_input):
    fn, ref = ELEMENTWISE[name]
    a_np, a = make_input(shape, dtype, low=-2, high=2, seed=1, layout=layout)
    b_np, b = make_input(shape, dtype, low=-2, high=2, seed=2, layout=layout)
    got = fn(a, b)
    assert got.shape == shape
    _assert_close(got, ref(a_np.astype(numpy.float64), b_np.astype(numpy.float64)), dtype)


def test_elementwise_losses_broadcast_and_promote():
    a = chainerx.array([[1.0, -2.0, 3.0]], numpy.float32)
    b = chainerx.array([[0.5], [4.0]], numpy.float64)
    got = chainerx.squared_error(a, b)
    assert got.dtype == numpy.float64
    chainerx.testing.assert_allclose(got, [[0.25, 6.25, 6.25], [9.0, 36.0, 1.0]])


def test_huber_loss_both_branches_and_the_kink():
    x = chainerx.array([0.0, 0.5, 1.0, 1.5, -3.0])
    # |d| <= delta is quadratic (continuous at |d| = delta), beyond it linear.
    chainerx.testing.assert_allclose(
        chainerx.huber_loss(x, chainerx.zeros_like(x), 1.0), [0.0, 0.125, 0.5, 1.0, 2.5]
    )


@pytest.mark.parametrize(
    ("reduce", "ref"), [("no", lambda v: v), ("sum", numpy.sum), ("mean", numpy.mean)]
)
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_gaussian_kl_divergence_reductions(reduce, ref, dtype, make_input):
    mean_np, mean = make_input((4, 3), dtype, seed=3)
    ln_var_np, ln_var = make_input((4, 3), dtype, low=-1, high=1, seed=4, layout="transposed")
    got = chainerx.gaussian_kl_divergence(mean, ln_var, reduce=reduce)
    expected = ref(
        _gaussian_kl_ref(mean_np.astype(numpy.float64), ln_var_np.astype(numpy.float64))
    )
    assert got.shape == numpy.shape(expected)
    _assert_close(got, expected, dtype)


def test_gaussian_kl_divergence_default_is_elementwise():
    mean = chainerx.array([0.0, 1.0])
    assert chainerx.gaussian_kl_divergence(mean, chainerx.zeros_like(mean)).shape == (2,)


def _labels(shape, n_classes, seed, ignore_every=3):
    t = numpy.random.default_rng(seed).integers(0, n_classes, shape)
    t.reshape(-1)[::ignore_every] = -1
    return t


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("shape", [(4, 3), (1, 1), (2, 3, 2), (0,)])
def test_sigmoid_cross_entropy(dtype, shape, layout, make_input):
    x_np, x = make_input(shape, dtype, low=-4, high=4, seed=5, layout=layout)
    t_np = _labels(shape, 2, seed=6)
    got = chainerx.sigmoid_cross_entropy(x, chainerx.array(t_np.astype(numpy.int32)))
    assert got.shape == shape
    _assert_close(got, _sigmoid_ce_ref(x_np.astype(numpy.float64), t_np), dtype)


def test_sigmoid_cross_entropy_extreme_logits_stay_finite():
    x = chainerx.array([-1000.0, 1000.0, -1000.0, 1000.0])
    t = chainerx.array([0, 1, 1, 0])
    # log(1 + exp(-|x|)) is 0 here; a wrong label costs |x|.
    chainerx.testing.assert_allclose(
        chainerx.sigmoid_cross_entropy(x, t), [0.0, 0.0, 1000.0, 1000.0]
    )


def test_sigmoid_cross_entropy_gradient_at_zero_logit():
    # The kink of |x| in the stable formula must not leak into the gradient: d/dx = sigmoid(x) - t.
    x = chainerx.array([0.0, 0.0, 0.0]).require_grad()
    loss = chainerx.sigmoid_cross_entropy(x, chainerx.array([0, 1, -1]))
    loss.backward()
    chainerx.testing.assert_allclose(x.grad, [0.5, -0.5, 0.0])


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize(("n", "c"), [(5, 4), (1, 3), (3, 1), (0, 4), (16, 1000)])
@pytest.mark.parametrize("label_dtype", ["int32", "int64", "uint8"])
def test_softmax_cross_entropy(dtype, n, c, label_dtype, layout, make_input):
    x_np, x = make_input((n, c), dtype, low=-5, high=5, seed=7, layout=layout)
    t_np = _labels((n,), c, seed=8)
    if label_dtype == "uint8":
        t_np = numpy.maximum(t_np, 0) % 256  # no ignore label without a sign
    got = chainerx.softmax_cross_entropy(x, chainerx.array(t_np.astype(label_dtype)))
    assert got.shape == (n,)
    # One rounding of a float32-accumulated result in float16.
    tol = {"float16": 2e-3, "float32": 1e-5, "float64": 1e-12}[dtype]
    assert got.dtype == numpy.dtype(dtype)
    chainerx.testing.assert_allclose(got, _softmax_ce_ref(x_np, t_np), rtol=tol, atol=tol)


def test_softmax_cross_entropy_large_logits_and_nan():
    x = chainerx.array([[1000.0, 0.0], [0.0, 1000.0], [numpy.nan, 0.0]])
    got = chainerx.to_numpy(chainerx.softmax_cross_entropy(x, chainerx.array([0, 0, 1])))
    numpy.testing.assert_allclose(got[:2], [0.0, 1000.0])
    assert numpy.isnan(got[2])


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_softmax_cross_entropy_gradient_values(dtype, make_input):
    # Against the closed form (softmax - onehot) * gy, ignored rows zero.
    x_np, x = make_input((4, 5), dtype, seed=9, layout="transposed")
    t_np = numpy.array([2, -1, 0, 4])
    gy_np = numpy.array([0.5, 2.0, 1.0, -1.5])
    x.require_grad()
    (gx,) = chainerx.grad(
        [chainerx.softmax_cross_entropy(x, chainerx.array(t_np))],
        [x],
        grad_outputs=[chainerx.array(gy_np.astype(dtype))],
    )
    xd = x_np.astype(numpy.float64)
    p = numpy.exp(xd - xd.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    onehot = numpy.eye(5)[numpy.maximum(t_np, 0)]
    expected = (p - onehot) * (gy_np * (t_np != -1))[:, None]
    tol = {"float16": 2e-3, "float32": 1e-6, "float64": 1e-12}[dtype]
    assert gx.dtype == numpy.dtype(dtype)
    chainerx.testing.assert_allclose(gx, expected, rtol=tol, atol=tol)


def _away_from(values, points, margin):
    """values with entries within margin of any of points pushed margin past them."""
    out = values.copy()
    for p in points:
        near = numpy.abs(out - p) < margin
        out[near] = p + margin * numpy.where(out[near] >= p, 1, -1)
    return out


def test_elementwise_loss_gradients():
    rng = numpy.random.default_rng(10)
    a = rng.uniform(-2, 2, (3, 4))
    b = rng.uniform(-2, 2, (3, 4))
    # Keep x1 - x2 away from the kinks of |d| (0) and of huber (+-delta).
    d = _away_from(a - b, [0.0, -0.7, 0.7], 0.05)
    a = b + d
    check_backward(chainerx.absolute_error, [a, b], double_backprop=True)
    check_backward(chainerx.squared_error, [a, b], double_backprop=True)
    check_backward(lambda x, y: chainerx.huber_loss(x, y, 0.7), [a, b], double_backprop=True)


@pytest.mark.parametrize("reduce", ["no", "sum", "mean"])
def test_gaussian_kl_divergence_gradients(reduce):
    rng = numpy.random.default_rng(11)
    check_backward(
        lambda m, v: chainerx.gaussian_kl_divergence(m, v, reduce),
        [rng.uniform(-1, 1, (2, 3)), rng.uniform(-1, 1, (2, 3))],
        double_backprop=True,
    )


def test_sigmoid_cross_entropy_gradients():
    x = numpy.random.default_rng(12).uniform(-3, 3, (3, 4))
    t = chainerx.array(_labels((3, 4), 2, seed=13))
    check_backward(lambda v: chainerx.sigmoid_cross_entropy(v, t), [x], double_backprop=True)


@pytest.mark.parametrize(("n", "c"), [(4, 5), (1, 3), (3, 1)])
def test_softmax_cross_entropy_gradients(n, c):
    x = numpy.random.default_rng(14).uniform(-2, 2, (n, c))
    t = chainerx.array(_labels((n,), c, seed=15))
    check_backward(lambda v: chainerx.softmax_cross_entropy(v, t), [x], double_backprop=True)


def test_softmax_cross_entropy_third_order():
    # The backward of the gradient node is itself differentiable: d3/dx3 of the loss against
    # central differences of the analytic second derivative.
    x_np = numpy.array([[0.3, -0.2, 0.9]])
    t = chainerx.array([1])

    def second(x):
        (g,) = chainerx.grad(
            [chainerx.softmax_cross_entropy(x, t)], [x], enable_double_backprop=True
        )
        (gg,) = chainerx.grad([g[0, 0]], [x], enable_double_backprop=True)
        return gg

    check_backward(
        lambda v: second(v if v.is_grad_required() else v.copy().require_grad()), [x_np]
    )


def test_softmax_cross_entropy_gradient_wrt_gradient_output():
    # In double backprop the gradient node is differentiable in gy too.
    x_np = numpy.random.default_rng(16).uniform(-1, 1, (3, 4))
    t = chainerx.array([0, -1, 3])

    def grad_of_x(gy):
        x = chainerx.array(x_np).require_grad()
        loss = chainerx.softmax_cross_entropy(x, t)
        (g,) = chainerx.grad([loss], [x], grad_outputs=[gy], enable_double_backprop=True)
        return g

    check_backward(grad_of_x, [numpy.array([0.5, 1.0, -2.0])])


LABEL_ERRORS = [
    (chainerx.sigmoid_cross_entropy, (2, 3), (2, 3)),
    (chainerx.softmax_cross_entropy, (2, 3), (2,)),
]


@pytest.mark.parametrize(("fn", "x_shape", "t_shape"), LABEL_ERRORS)
def test_cross_entropy_dtype_errors(fn, x_shape, t_shape):
    name = fn.__name__
    with pytest.raises(chainerx.DtypeError, match=f"{name} requires a floating dtype, got int32"):
        fn(chainerx.zeros(x_shape, numpy.int32), chainerx.zeros(t_shape, numpy.int32))
    with pytest.raises(
        chainerx.DtypeError, match=f"{name}: labels must have an integer dtype, got float32"
    ):
        fn(chainerx.zeros(x_shape), chainerx.zeros(t_shape))
    with pytest.raises(chainerx.DtypeError, match="got bool"):
        fn(chainerx.zeros(x_shape), chainerx.zeros(t_shape, numpy.bool_))


@pytest.mark.parametrize("name", ["absolute_error", "squared_error", "gaussian_kl_divergence"])
def test_elementwise_loss_dtype_errors(name):
    fn = getattr(chainerx, name)
    with pytest.raises(chainerx.DtypeError, match=f"{name} requires a floating dtype, got int64"):
        fn(chainerx.zeros((2,)), chainerx.zeros((2,), numpy.int64))


def test_huber_loss_dtype_error():
    with pytest.raises(
        chainerx.DtypeError, match="huber_loss requires a floating dtype, got bool"
    ):
        chainerx.huber_loss(chainerx.zeros((2,), numpy.bool_), chainerx.zeros((2,)), 1.0)


def test_loss_shape_errors():
    with pytest.raises(chainerx.DimensionError, match="operands could not be broadcast"):
        chainerx.squared_error(chainerx.zeros((2, 3)), chainerx.zeros((3, 2)))
    with pytest.raises(
        chainerx.DimensionError,
        match=r"sigmoid_cross_entropy: x1 of shape \(2, 3\) and labels x2 of shape \(3,\) "
        "must have the same shape",
    ):
        chainerx.sigmoid_cross_entropy(chainerx.zeros((2, 3)), chainerx.zeros((3,), numpy.int32))
    with pytest.raises(
        chainerx.DimensionError,
        match=r"softmax_cross_entropy: x1 must be 2-D logits \(samples, classes\), "
        r"got shape \(6,\)",
    ):
        chainerx.softmax_cross_entropy(chainerx.zeros((6,)), chainerx.zeros((6,), numpy.int32))
    with pytest.raises(
        chainerx.DimensionError,
        match=r"labels x2 must have shape \(2,\) to match x1 of shape \(2, 3\), got \(3,\)",
    ):
        chainerx.softmax_cross_entropy(chainerx.zeros((2, 3)), chainerx.zeros((3,), numpy.int32))
    with pytest.raises(chainerx.DimensionError, match=r"x1 of shape \(2, 0\) has no classes"):
        chainerx.softmax_cross_entropy(chainerx.zeros((2, 0)), chainerx.zeros((2,), numpy.int32))


@pytest.mark.parametrize("label", [3, -2])
def test_softmax_cross_entropy_label_out_of_range(label):
    with pytest.raises(
        IndexError,
        match=f"label {label} of sample 1 is out of range for 3 classes",
    ):
        chainerx.softmax_cross_entropy(chainerx.zeros((2, 3)), chainerx.array([0, label]))


def test_gaussian_kl_divergence_bad_reduce():
    with pytest.raises(ValueError, match="reduce must be 'no', 'sum' or 'mean', got 'max'"):
        chainerx.gaussian_kl_divergence(chainerx.zeros((2,)), chainerx.zeros((2,)), "max")
