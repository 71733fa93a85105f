"""Arithmetic ops: values against NumPy, first and second order gradients, broadcasting."""

import numpy
import pytest

import chainer
from chainer import Variable, backend, gradient_check
from chainer._ops import basic_math
from chainer.utils import type_check

from .conftest import FORWARD_TOLERANCES, TOLERANCES

BINARY = {
    "add": (lambda a, b: a + b, lambda a, b: a + b),
    "sub": (lambda a, b: a - b, lambda a, b: a - b),
    "mul": (lambda a, b: a * b, lambda a, b: a * b),
    "div": (lambda a, b: a / b, lambda a, b: a / b),
    "pow": (lambda a, b: a**b, lambda a, b: numpy.power(a, b)),
}
SHAPES = [((3, 2), (3, 2)), ((3, 2), (2,)), ((1, 2), (3, 1)), ((), (4,))]


def _positive(rng, shape, dtype):
    return rng.uniform(0.5, 1.5, shape).astype(dtype)


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize(("shape_a", "shape_b"), SHAPES)
def test_binary(name, shape_a, shape_b, dtype, rng, backend_config):
    op, reference = BINARY[name]
    to_device = backend_config.get_array
    a_cpu = _positive(rng, shape_a, dtype)
    b_cpu = _positive(rng, shape_b, dtype)
    a, b = to_device(a_cpu), to_device(b_cpu)
    y = op(Variable(a), Variable(b))
    expected = reference(a_cpu.astype(numpy.float64), b_cpu.astype(numpy.float64))
    assert y.dtype == dtype and y.shape == expected.shape
    assert y.xp is backend_config.xp
    numpy.testing.assert_allclose(
        backend.CpuDevice().send(y.array), expected, **FORWARD_TOLERANCES[dtype]
    )
    gy = to_device(rng.standard_normal(expected.shape).astype(dtype))
    ggs = tuple(to_device(rng.standard_normal(s).astype(dtype)) for s in (shape_a, shape_b))
    gradient_check.check_backward(op, (a, b), gy, **TOLERANCES[dtype])
    gradient_check.check_double_backward(op, (a, b), gy, ggs, **TOLERANCES[dtype])


SCALAR = {
    "add": (lambda x: x + 2.5, lambda x: x + 2.5),
    "radd": (lambda x: 2.5 + x, lambda x: 2.5 + x),
    "sub": (lambda x: x - 2.5, lambda x: x - 2.5),
    "rsub": (lambda x: 2.5 - x, lambda x: 2.5 - x),
    "mul": (lambda x: x * 2.5, lambda x: x * 2.5),
    "rmul": (lambda x: 2.5 * x, lambda x: 2.5 * x),
    "div": (lambda x: x / 2.5, lambda x: x / 2.5),
    "rdiv": (lambda x: 2.5 / x, lambda x: 2.5 / x),
    "pow": (lambda x: x**2.5, lambda x: x**2.5),
    "rpow": (lambda x: 2.5**x, lambda x: 2.5**x),
    "neg": (lambda x: -x, lambda x: -x),
    "abs": (lambda x: abs(x - 1.0), lambda x: abs(x - 1.0)),
    "array_rhs": (
        lambda x: x * x.xp.asarray(numpy.array([2.0, 3.0], x.dtype)),
        lambda x: x * numpy.array([2.0, 3.0]),
    ),
    "array_lhs": (
        # the reflected operator, as a NumPy array on the left defers to it
        lambda x: x.__rsub__(x.xp.asarray(numpy.array([2.0, 3.0], x.dtype))),
        lambda x: numpy.array([2.0, 3.0]) - x,
    ),
}


@pytest.mark.parametrize("name", sorted(SCALAR))
def test_with_constants(name, dtype, rng, backend_config):
    op, reference = SCALAR[name]
    to_device = backend_config.get_array
    x_cpu = rng.uniform(0.5, 1.5, (3, 2)).astype(dtype)
    if name == "abs":  # keep away from the kink at 1
        x_cpu = x_cpu + numpy.where(numpy.abs(x_cpu - 1) < 0.1, 0.2, 0).astype(dtype)
    x = to_device(x_cpu)
    y = op(Variable(x))
    assert isinstance(y, Variable) and y.dtype == dtype and y.xp is backend_config.xp
    numpy.testing.assert_allclose(
        backend.CpuDevice().send(y.array),
        reference(x_cpu.astype(numpy.float64)),
        **FORWARD_TOLERANCES[dtype],
    )
    gy = to_device(rng.standard_normal((3, 2)).astype(dtype))
    ggx = to_device(rng.standard_normal((3, 2)).astype(dtype))
    gradient_check.check_backward(op, x, gy, **TOLERANCES[dtype])
    gradient_check.check_double_backward(op, x, gy, ggx, **TOLERANCES[dtype])


def test_scalar_is_cast_to_the_variable_dtype():
    x = Variable(numpy.array([1, 2], numpy.int32))
    assert (x * 2).dtype == numpy.int32
    numpy.testing.assert_array_equal((x + 1.7).array, [2, 3])  # 1.7 -> int32(1), as Chainer
    half = Variable(numpy.array([1.0], numpy.float16))
    assert (half * numpy.float64(3)).dtype == numpy.float16


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32])
@pytest.mark.parametrize("constant", [2, 2.0, numpy.int64(2), numpy.float64(2.0)])
def test_division_of_a_0d_variable_by_a_scalar_keeps_its_dtype(dtype, constant):
    # NumPy 1 gives float64 for 1 / numpy.float16(2): the reciprocal is taken in the dtype.
    x = Variable(numpy.array(3, dtype))
    y = x / constant
    assert y.dtype == dtype and float(y.array) == 1.5
    y.backward()
    assert x.grad.dtype == dtype and float(x.grad) == 0.5


def test_array_operand_is_cast_to_the_variable_dtype():
    # v7: a constant array of another dtype takes the variable's dtype (both sides).
    x = Variable(numpy.array([1.5, 2.5], numpy.float32))
    c = numpy.array([2.0, 4.0], numpy.float64)
    for y, expected in [
        (x + c, [3.5, 6.5]),
        (c - x, [0.5, 1.5]),
        (x * c, [3.0, 10.0]),
        (c / x, [2 / 1.5, 4 / 2.5]),
    ]:
        assert y.dtype == numpy.float32
        numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)
    y = x * c
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    assert x.grad.dtype == numpy.float32
    numpy.testing.assert_array_equal(x.grad, [2.0, 4.0])
    ints = Variable(numpy.array([1, 2], numpy.int32))
    numpy.testing.assert_array_equal((ints + numpy.array([0.7, 1.2])).array, [1, 3])


def test_unary_plus_returns_the_variable_itself():
    x = Variable(numpy.array([1.0, -2.0]))
    assert +x is x


def test_floor_division_has_no_gradient():
    x = Variable(numpy.array([5.0, 7.0]))
    y = x // 2.0
    numpy.testing.assert_array_equal(y.array, [2.0, 3.0])
    numpy.testing.assert_array_equal((9.0 // x).array, [1.0, 1.0])
    z = y * x
    z.grad = numpy.ones(2)
    z.backward()
    numpy.testing.assert_array_equal(x.grad, [2.0, 3.0])  # only the path through * counts


def test_n_ary_add():
    xs = [Variable(numpy.full(2, float(i))) for i in range(4)]
    y = basic_math.add(*xs)
    numpy.testing.assert_array_equal(y.array, [6.0, 6.0])
    y.grad = numpy.ones(2)
    y.backward()
    for x in xs:
        numpy.testing.assert_array_equal(x.grad, [1.0, 1.0])
    assert basic_math.add(xs[0]) is xs[0]


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        (numpy.ones(2, numpy.float32), numpy.ones(2, numpy.float64), "float32 != float64"),
        (numpy.ones((2, 3)), numpy.ones((4,)), r"cannot broadcast \(2, 3\), \(4,\)"),
    ],
)
def test_bad_operands_raise_invalid_type(a, b, message):
    for op in (lambda p, q: p * q, lambda p, q: p - q, lambda p, q: p + q):
        with pytest.raises(type_check.InvalidType, match=message):
            op(Variable(a), Variable(b))


def test_unsupported_operand_type():
    with pytest.raises(TypeError, match="unsupported operand type for a Variable operation: str"):
        Variable(numpy.ones(1)) * "x"


def test_pow_of_integers_needs_float():
    with pytest.raises(type_check.InvalidType, match="in_types\\[0\\].dtype.kind == f"):
        Variable(numpy.array([2], numpy.int32)) ** 2


def test_ndarray_on_the_left_defers_to_variable():
    y = numpy.ones(2) * Variable(numpy.array([2.0, 3.0]))
    assert isinstance(y, Variable)
    numpy.testing.assert_array_equal(y.array, [2.0, 3.0])


def test_backprop_disabled_returns_plain_outputs():
    x = Variable(numpy.ones(2))
    with chainer.no_backprop_mode():
        y = x * x + 1
    assert y.creator_node is None


def test_abs_of_0d_input_has_a_gradient():
    x = Variable(numpy.array(-2.0))
    abs(x).backward()
    assert x.grad == -1.0


@pytest.mark.parametrize(
    "node, label",
    [
        (basic_math.Neg(), "__neg__"),
        (basic_math.Absolute(), "|_|"),
        (basic_math.Add(), "_ + _"),
        (basic_math.Sub(), "_ - _"),
        (basic_math.Mul(), "_ * _"),
        (basic_math.Div(), "_ / _"),
        (basic_math.PowVarVar(), "_ ** _"),
        (basic_math.FloorDivide(), "_ // _"),
        (basic_math.AddConstant(2.0), "_ + 2.0"),
        (basic_math.SubFromConstant(-2), "(-2) - _"),
        (basic_math.MulConstant(numpy.float32(2)), "_ * 2.0"),
        (basic_math.DivFromConstant(numpy.array([1, 2])), "constant array / _"),
        (basic_math.PowVarConst(3), "_ ** 3"),
        (basic_math.PowConstVar(-0.5), "(-0.5) ** _"),
    ],
)
def test_labels_are_v7s(node, label):
    assert node.label == label


def test_label_of_a_variable_constant_and_of_a_bad_one():
    assert basic_math.constant_label(Variable(numpy.array([1.0, 2.0]))) == "constant array"
    with pytest.raises(ValueError, match=r"must be a Variable, a scalar or an array, got dict"):
        basic_math.constant_label({})


def test_type_errors_name_the_operation_by_its_label():
    with pytest.raises(type_check.InvalidType, match=r"performed in: _ \* _ \(Forward\)"):
        Variable(numpy.ones(2, numpy.float32)) * Variable(numpy.ones(2, numpy.float64))


NATIVE_ON_CHAINERX = [
    (basic_math.Add, lambda a, b: a + b),
    (basic_math.AddConstant, lambda a, b: a + 2.0),
    (basic_math.Sub, lambda a, b: a - b),
    (basic_math.SubFromConstant, lambda a, b: 2.0 - a),
    (basic_math.Neg, lambda a, b: -a),
    (basic_math.Mul, lambda a, b: a * b),
    (basic_math.MulConstant, lambda a, b: a * 2.0),
    (basic_math.Div, lambda a, b: a / b),  # float32 (float16 falls back)
    (basic_math.DivFromConstant, lambda a, b: 2.0 / a),
    (basic_math.PowVarVar, lambda a, b: a**b),
    (basic_math.PowVarConst, lambda a, b: a**2.0),
    (basic_math.PowConstVar, lambda a, b: 2.0**a),
    (basic_math.Absolute, lambda a, b: abs(a)),
]


@pytest.mark.parametrize(
    ("node", "op"), NATIVE_ON_CHAINERX, ids=lambda v: getattr(v, "__name__", "")
)
def test_operators_run_natively_on_chainerx(node, op, monkeypatch):
    chainerx = pytest.importorskip("chainerx")

    def fallback_forward(self, inputs):
        raise AssertionError(f"{type(self).__name__} fell back to its NumPy forward")

    monkeypatch.setattr(node, "forward", fallback_forward)
    a = Variable(chainerx.array([0.5, 1.5], numpy.float32))
    b = Variable(chainerx.array([2.0, 3.0], numpy.float32))
    y = op(a, b)
    assert isinstance(y.array, chainerx.ndarray)
    y.grad = chainerx.ones_like(y.array)
    y.backward()
    assert a.grad.dtype == numpy.float32


def test_float16_division_falls_back_on_chainerx():
    chainerx = pytest.importorskip("chainerx")
    a = chainerx.array([1.0, 3.0], numpy.float16)
    b = chainerx.array([2.0, 4.0], numpy.float16)
    assert basic_math.Div().forward_chainerx((a, b)) is chainer.Fallback
    y = Variable(a) / Variable(b)
    assert isinstance(y.array, chainerx.ndarray) and y.dtype == numpy.float16
    numpy.testing.assert_array_equal(chainerx.to_numpy(y.array), [0.5, 0.75])


def test_comparisons_of_chainerx_variables_are_chainerx_booleans():
    chainerx = pytest.importorskip("chainerx")
    x = Variable(chainerx.array([1.0, 2.0, 3.0], numpy.float32))
    y = Variable(chainerx.array([2.0, 2.0, 2.0], numpy.float32))
    cases = [
        (x < y, [True, False, False]),
        (x <= 2.0, [True, True, False]),
        (x == y, [False, True, False]),
        (x != 2, [True, False, True]),
        (x > numpy.float32(1), [False, True, True]),
        (x >= y, [False, True, True]),
    ]
    for z, expected in cases:
        assert isinstance(z.array, chainerx.ndarray) and z.dtype == numpy.bool_
        assert not z.requires_grad
        numpy.testing.assert_array_equal(chainerx.to_numpy(z.array), expected)
