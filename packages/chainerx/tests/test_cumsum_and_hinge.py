"""cumsum and hinge: values against NumPy, dtypes, gradients and errors."""

import numpy
import pytest

import chainerx
from chainerx.testing._gradient import check_backward


@pytest.mark.parametrize("axis", [None, 0, 1, 2, -1, -3])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "uint8", "int64", "bool_"])
def test_cumsum_matches_numpy(axis, dtype, make_input):
    x_np, x = make_input((2, 5, 3), dtype, layout="strided")
    y = chainerx.cumsum(x, axis=axis)
    expected = numpy.cumsum(x_np, axis=axis)
    # NumPy sums bool and integers in int64, uint8 in uint64; ChainerX has no uint64.
    assert y.dtype == (numpy.int64 if dtype in ("uint8", "bool_") else expected.dtype)
    # The prefix sum adds in another order than NumPy's loop.
    numpy.testing.assert_allclose(chainerx.to_numpy(y), expected, rtol=1e-5)


@pytest.mark.parametrize("n", [0, 1, 2, 7, 64, 1000])
def test_cumsum_lengths(n):
    values = numpy.arange(n, dtype=numpy.int64) * 3 - 5
    numpy.testing.assert_array_equal(
        chainerx.to_numpy(chainerx.cumsum(chainerx.array(values))), numpy.cumsum(values)
    )


def test_cumsum_returns_a_copy():
    x = chainerx.array([1.0])
    y = chainerx.cumsum(x)
    y += 1
    assert float(x[0]) == 1.0


def test_cumsum_gradients():
    rng = numpy.random.default_rng(1)
    x = rng.uniform(-1, 1, (3, 6))
    check_backward(lambda a: chainerx.cumsum(a, 1) ** 2, [x], double_backprop=True)
    check_backward(lambda a: chainerx.cumsum(a) ** 2, [x], double_backprop=True)


def test_cumsum_axis_error():
    with pytest.raises(chainerx.DimensionError, match=r"cumsum: axis 2 is out of range"):
        chainerx.cumsum(chainerx.zeros((2, 3)), axis=2)


def _hinge_numpy(x, t, norm):
    sign = numpy.ones_like(x)
    sign[numpy.arange(len(t)), t] = -1
    return numpy.maximum(0, 1 + sign * x) ** norm


@pytest.mark.parametrize("norm", [1.0, 2.0, 1.5])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_hinge_matches_numpy(norm, dtype):
    rng = numpy.random.default_rng(2)
    x = rng.normal(size=(4, 3)).astype(dtype)
    t = numpy.array([0, 2, 1, 2], numpy.int8)
    y = chainerx.hinge(chainerx.array(x), chainerx.array(t), norm=norm)
    assert y.dtype == x.dtype and y.shape == x.shape
    rtol = 1e-2 if dtype == "float16" else 1e-6
    numpy.testing.assert_allclose(
        chainerx.to_numpy(y), _hinge_numpy(x.astype(numpy.float64), t, norm), rtol=rtol, atol=rtol
    )


def test_hinge_gradients():
    # Away from the kink at margin 0.
    x = numpy.array([[0.3, -1.7, 2.2], [-0.4, 0.6, -2.5]])
    t = chainerx.array([1, 2])
    check_backward(lambda a: chainerx.hinge(a, t, norm=2.0), [x], double_backprop=True)
    check_backward(lambda a: chainerx.hinge(a, t), [x])


def test_hinge_errors():
    x = chainerx.zeros((2, 3), "float32")
    with pytest.raises(chainerx.DimensionError, match=r"t shape \(n,\), got \(2, 3\) and \(3,\)"):
        chainerx.hinge(x, chainerx.array([0, 1, 2]))
    with pytest.raises(chainerx.DtypeError, match=r"got float32 and float64$"):
        chainerx.hinge(x, chainerx.zeros((2,), "float64"))
    with pytest.raises(ValueError, match="norm must be a positive number, got 0"):
        chainerx.hinge(x, chainerx.array([0, 1]), norm=0)


@pytest.mark.parametrize("dtype", ["int8", "int32", "float32", "float64"])
def test_fmod_matches_numpy(dtype):
    a = numpy.array([-7, -5, -1, 0, 1, 5, 7, 9], dtype)
    b = numpy.array([3, -3, 3, -3, 2, 3, -4, 3], dtype)
    chainerx.testing.assert_array_equal_ex(
        chainerx.fmod(chainerx.array(a), chainerx.array(b)), numpy.fmod(a, b)
    )


def test_fmod_special_values():
    a = numpy.array([12.0, -12.0, numpy.inf, numpy.nan, 12.0, -0.0])
    b = numpy.array([numpy.inf, -numpy.inf, 3.0, 3.0, numpy.nan, 3.0])
    with numpy.errstate(invalid="ignore"):
        expected = numpy.fmod(a, b)
    chainerx.testing.assert_allclose(chainerx.fmod(chainerx.array(a), chainerx.array(b)), expected)
    ints = chainerx.fmod(chainerx.array([5, -5], "int16"), chainerx.array([0, 0], "int16"))
    chainerx.testing.assert_array_equal_ex(ints, numpy.zeros(2, "int16"))


def test_fmod_gradients():
    # d/da = 1, d/db = -trunc(a / b), away from the jumps.
    a = numpy.array([2.3, -4.1, 5.5, -0.7])
    b = numpy.array([1.5, 2.0, -2.0, -0.4])
    check_backward(lambda x, y: chainerx.fmod(x, y) ** 2, [a, b], double_backprop=True)
