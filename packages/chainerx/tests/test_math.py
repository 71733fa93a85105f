"""Element-wise math routines against NumPy over dtypes, shapes and memory layouts."""

import math

import numpy
import pytest

import chainerx
from chainerx.testing._gradient import check_backward

SHAPES = [(), (0,), (3,), (2, 3), (2, 0, 4), (2, 3, 4)]

# name -> (input range, dtypes); NumPy's function of the same name is the reference.
UNARY_FLOAT = {
    "exp": (-3, 3),
    "expm1": (-3, 3),
    "exp2": (-3, 3),
    "log": (0.1, 5),
    "log10": (0.1, 5),
    "log2": (0.1, 5),
    "log1p": (-0.5, 5),
    "sqrt": (0, 5),
    "sin": (-3, 3),
    "cos": (-3, 3),
    "tan": (-1.2, 1.2),
    "arcsin": (-0.9, 0.9),
    "arccos": (-0.9, 0.9),
    "arctan": (-3, 3),
    "sinh": (-3, 3),
    "cosh": (-3, 3),
    "tanh": (-3, 3),
    "arcsinh": (-3, 3),
    "arccosh": (1.1, 4),
    "arctanh": (-0.9, 0.9),
    "ceil": (-3, 3),
    "floor": (-3, 3),
}
UNARY_NUMERIC = ["negative", "absolute", "square", "sign"]


@pytest.mark.parametrize("name", sorted(UNARY_FLOAT))
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES)
def test_unary_float_functions(name, dtype, shape, layout, make_input, rtol):
    low, high = UNARY_FLOAT[name]
    x_np, x = make_input(shape, dtype, low=low, high=high, layout=layout)
    expected = getattr(numpy, name)(x_np)
    y = getattr(chainerx, name)(x)
    assert y.dtype == expected.dtype
    assert y.shape == expected.shape
    numpy.testing.assert_allclose(chainerx.to_numpy(y), expected, rtol=rtol(dtype) * 10, atol=1e-6)


@pytest.mark.parametrize("name", ["exp", "log", "sqrt", "sin", "tanh"])
@pytest.mark.parametrize("dtype", ["bool_", "int8", "uint8", "int16", "int32", "int64"])
def test_unary_float_functions_promote_integers_like_numpy(name, dtype, make_input):
    x_np, x = make_input((5,), dtype, low=1, high=5)
    if dtype == "bool_":  # log(False) would be -inf
        x_np = numpy.ones(5, bool)
        x = chainerx.array(x_np)
    expected = getattr(numpy, name)(x_np)
    y = getattr(chainerx, name)(x)
    assert y.dtype == expected.dtype
    numpy.testing.assert_allclose(chainerx.to_numpy(y), expected, rtol=1e-3)


@pytest.mark.parametrize("name", UNARY_NUMERIC)
@pytest.mark.parametrize(
    "dtype", ["int8", "int16", "int32", "int64", "float16", "float32", "float64"]
)
@pytest.mark.parametrize("shape", [(), (0, 2), (3, 4)])
def test_unary_numeric_functions(name, dtype, shape, layout, make_input):
    x_np, x = make_input(shape, dtype, layout=layout)
    expected = getattr(numpy, name)(x_np)
    y = getattr(chainerx, name)(x)
    assert y.dtype == expected.dtype
    numpy.testing.assert_array_equal(chainerx.to_numpy(y), expected)


def test_sigmoid_relu_reciprocal_match_formulas():
    x_np = numpy.array([-2.0, -0.5, 0.0, 0.5, 3.0])
    x = chainerx.array(x_np)
    numpy.testing.assert_allclose(
        chainerx.to_numpy(chainerx.sigmoid(x)), 1 / (1 + numpy.exp(-x_np)), rtol=1e-12
    )
    numpy.testing.assert_array_equal(chainerx.to_numpy(chainerx.relu(x)), numpy.maximum(x_np, 0))
    r = chainerx.reciprocal(chainerx.array([2.0, -4.0]))
    numpy.testing.assert_array_equal(chainerx.to_numpy(r), [0.5, -0.25])


BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "arctan2"]
DTYPE_PAIRS = [
    ("float32", "float32"),
    ("float64", "float16"),
    ("int32", "float32"),
    ("int8", "uint8"),
    ("int64", "int64"),
    ("float16", "float16"),
]


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize(("dtype1", "dtype2"), DTYPE_PAIRS)
@pytest.mark.parametrize(
    ("shape1", "shape2"), [((2, 3), (2, 3)), ((2, 1), (3,)), ((0, 3), (3,)), ((), (4,))]
)
def test_binary_functions(name, dtype1, dtype2, shape1, shape2, make_input, rtol):
    low = 0.5 if name in ("power", "divide") else -3
    a_np, a = make_input(shape1, dtype1, low=low, high=3, seed=1)
    b_np, b = make_input(
        shape2, dtype2, low=max(low, 1) if name == "power" else low, high=3, seed=2
    )
    if name in ("divide", "arctan2") and numpy.dtype(dtype2).kind in "iu":
        b_np = b_np + (b_np == 0)
        b = chainerx.array(b_np)
    expected = getattr(numpy, name)(a_np, b_np)
    y = getattr(chainerx, name)(a, b)
    assert y.dtype == expected.dtype, (y.dtype, expected.dtype)
    tol = max(rtol(expected.dtype), 1e-7)
    numpy.testing.assert_allclose(
        chainerx.to_numpy(y), expected, rtol=tol * 10, atol=1e-3 if tol > 1e-4 else 1e-9
    )


@pytest.mark.parametrize("name", ["floor_divide", "remainder"])
@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "float32", "float64"])
def test_floor_divide_and_remainder_follow_python_signs(name, dtype):
    a_np = numpy.array([7, -7, 7, -7, 5, 0], dtype)
    b_np = numpy.array([2, 2, -2, -2, 3, 4], dtype)
    expected = getattr(numpy, name)(a_np, b_np)
    y = getattr(chainerx, name)(chainerx.array(a_np), chainerx.array(b_np))
    assert y.dtype == expected.dtype
    numpy.testing.assert_allclose(chainerx.to_numpy(y), expected)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_float_floor_division_matches_numpy_at_multiples_and_infinities(dtype):
    # x // y goes with x % y (NumPy's divmod), not floor(x / y): 100.8 // 1.2 is 83 in float32.
    a_np = numpy.array([0.0, 0.8, 2.4, 100.8, 101.6, -5.0, 5.0, -0.5, 3.0, -3.0, numpy.nan], dtype)
    b_np = numpy.array([1.2, 1.2, 1.2, 1.2, 1.2, numpy.inf, numpy.inf, -numpy.inf, 0, 0, 1], dtype)
    with numpy.errstate(all="ignore"):
        expected = numpy.floor_divide(a_np, b_np)
    y = chainerx.floor_divide(chainerx.array(a_np), chainerx.array(b_np))
    chainerx.testing.assert_array_equal_ex(y, expected)


@pytest.mark.parametrize(
    ("array_dtype", "scalar"),
    [("int8", 3), ("int32", 1.5), ("float16", 2.0), ("bool_", 2), ("uint8", True)],
)
def test_python_scalars_are_weak_like_numpy2(array_dtype, scalar, make_input):
    a_np, a = make_input((3,), array_dtype, low=0, high=3)
    for op in (
        lambda p, q: p + q,
        lambda p, q: q * p,
        lambda p, q: p - q if p.dtype != bool else p * q,
    ):
        expected = op(a_np, scalar)
        got = op(a, scalar)
        assert got.dtype == expected.dtype
        numpy.testing.assert_allclose(chainerx.to_numpy(got), expected, rtol=1e-3)


def test_operators_match_functions():
    a_np = numpy.array([[1.0, 2.0], [3.0, 4.0]])
    a = chainerx.array(a_np)
    cases = [
        (a + a, a_np + a_np),
        (a - 1, a_np - 1),
        (2 - a, 2 - a_np),
        (a * 3, a_np * 3),
        (a / 2, a_np / 2),
        (1 / a, 1 / a_np),
        (a // 2, a_np // 2),
        (a % 3, a_np % 3),
        (a**2, a_np**2),
        (2**a, 2**a_np),
        (-a, -a_np),
        (abs(-a), abs(-a_np)),
        (a @ a, a_np @ a_np),
        (a_np + a, a_np + a_np),
        ([1.0, 2.0] * a, [1.0, 2.0] * a_np),
    ]
    for got, expected in cases:
        assert isinstance(got, chainerx.ndarray)
        numpy.testing.assert_allclose(chainerx.to_numpy(got), expected)


def test_bitwise_and_shift_operators():
    a_np = numpy.array([12, 10, 1], numpy.int32)
    b_np = numpy.array([10, 6, 3], numpy.int32)
    a, b = chainerx.array(a_np), chainerx.array(b_np)
    for got, expected in [
        (a & b, a_np & b_np),
        (a | b, a_np | b_np),
        (a ^ b, a_np ^ b_np),
        (~a, ~a_np),
        (a << 2, a_np << 2),
        (a >> 1, a_np >> 1),
        (chainerx.bitwise_and(a, 6), numpy.bitwise_and(a_np, 6)),
    ]:
        numpy.testing.assert_array_equal(chainerx.to_numpy(got), expected)
    with pytest.raises(chainerx.DtypeError, match="not supported for dtype float32"):
        chainerx.bitwise_or(chainerx.ones((1,)), chainerx.ones((1,)))


def test_clip():
    x_np = numpy.array([-2.0, 0.5, 3.0])
    x = chainerx.array(x_np)
    numpy.testing.assert_array_equal(
        chainerx.to_numpy(chainerx.clip(x, -1, 1)), numpy.clip(x_np, -1, 1)
    )
    numpy.testing.assert_array_equal(chainerx.to_numpy(x.clip(None, 0)), numpy.clip(x_np, None, 0))
    with pytest.raises(chainerx.ChainerxError, match="at least one of a_min and a_max"):
        chainerx.clip(x, None, None)


def test_mismatched_shapes_raise_dimension_error():
    with pytest.raises(
        chainerx.DimensionError,
        match=r"could not be broadcast together with shapes \(2, 3\) and \(4,\)",
    ):
        chainerx.add(chainerx.zeros((2, 3)), chainerx.zeros((4,)))


def test_bool_subtract_is_refused():
    b = chainerx.array([True, False])
    with pytest.raises(chainerx.DtypeError, match="bool arrays cannot be subtracted"):
        b - b


GRADIENT_CASES = {
    "exp": (chainerx.exp, (-1, 1)),
    "exp2": (chainerx.exp2, (-1, 1)),
    "erf": (chainerx.erf, (-1.5, 1.5)),
    "log": (chainerx.log, (0.5, 2)),
    "sqrt": (chainerx.sqrt, (0.5, 2)),
    "tanh": (chainerx.tanh, (-1, 1)),
    "sigmoid": (chainerx.sigmoid, (-1, 1)),
    "sin": (chainerx.sin, (-1, 1)),
    "arctan": (chainerx.arctan, (-1, 1)),
    "square": (chainerx.square, (-1, 1)),
    "reciprocal": (chainerx.reciprocal, (0.5, 2)),
    "log1p": (chainerx.log1p, (0, 1)),
    "abs": (chainerx.absolute, (0.2, 1)),
}


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_erf_matches_the_math_module(dtype):
    x_np = numpy.linspace(-3, 3, 13).astype(dtype)
    y = chainerx.erf(chainerx.array(x_np))
    assert y.dtype == numpy.dtype(dtype)
    expected = numpy.array([math.erf(v) for v in x_np.astype("float64")])
    rtol = 1e-3 if dtype == "float16" else 1e-6
    numpy.testing.assert_allclose(chainerx.to_numpy(y), expected, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("name", sorted(GRADIENT_CASES))
def test_unary_gradients_and_double_backprop(name):
    func, (low, high) = GRADIENT_CASES[name]
    x = numpy.random.default_rng(3).uniform(low, high, (2, 3))
    check_backward(func, [x], double_backprop=True)


@pytest.mark.parametrize(
    "name", ["add", "subtract", "multiply", "divide", "power", "maximum", "arctan2"]
)
def test_binary_gradients_with_broadcasting(name):
    rng = numpy.random.default_rng(4)
    a = rng.uniform(0.5, 2, (2, 3))
    b = rng.uniform(0.5, 2, (3,)) + 0.05
    check_backward(getattr(chainerx, name), [a, b], double_backprop=True)


def test_float16_arithmetic_rounds_like_numpy():
    a_np = numpy.array([1.0, 2049.0, 0.1], numpy.float16)
    a = chainerx.array(a_np)
    numpy.testing.assert_array_equal(chainerx.to_numpy(a + a), a_np + a_np)
    assert math.isinf(float(chainerx.array([60000.0], dtype="float16") * 2))
