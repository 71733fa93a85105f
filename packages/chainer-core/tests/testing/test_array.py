import numpy
import pytest

from chainer import testing


class HoldsArray:
    """Duck-typed like chainer.Variable: the data is in ``.array``."""

    def __init__(self, array):
        self.array = array


def within(x, y, atol, rtol):
    """The documented criterion, written out independently."""
    x, y = numpy.asarray(x, numpy.float64), numpy.asarray(y, numpy.float64)
    return bool(numpy.all(numpy.abs(x - y) <= atol + rtol * numpy.abs(y)))


@pytest.mark.parametrize(
    ("x", "y", "atol", "rtol"),
    [
        ([1.0, 2.0], [1.0 + 9e-6, 2.0], 1e-5, 0.0),
        ([1.0, 2.0], [1.0 + 2e-5, 2.0], 1e-5, 0.0),
        ([100.0], [100.009], 0.0, 1e-4),
        ([100.0], [100.02], 0.0, 1e-4),
        ([0.0, 1000.0], [1e-5, 1000.1], 1e-5, 1e-4),
    ],
)
def test_tolerances_follow_the_criterion(x, y, atol, rtol):
    if within(x, y, atol, rtol):
        testing.assert_allclose(numpy.array(x), numpy.array(y), atol=atol, rtol=rtol)
    else:
        with pytest.raises(AssertionError, match="assert_allclose failed"):
            testing.assert_allclose(numpy.array(x), numpy.array(y), atol=atol, rtol=rtol)


def test_default_tolerances():
    testing.assert_allclose(numpy.float32(1.0), 1.0 + 1e-5 + 1e-4 * 0.99)
    with pytest.raises(AssertionError):
        testing.assert_allclose(1.0 + 1e-5 + 1e-4 * 1.01 + 1e-9, 1.0)


def test_accepts_variables_lists_scalars_and_mixed_dtypes():
    x = HoldsArray(numpy.array([[1, 2], [3, 4]], numpy.float16))
    testing.assert_allclose(x, [[1, 2], [3, 4]])
    testing.assert_allclose(numpy.array(3, numpy.int32), HoldsArray(numpy.float64(3)))
    testing.assert_allclose(numpy.array([1 + 2j]), [1 + 2j])
    testing.assert_allclose(numpy.array([True, False]), [1, 0])


def test_nan_matches_nan_only():
    testing.assert_allclose([numpy.nan, 1.0], [numpy.nan, 1.0])
    with pytest.raises(AssertionError, match=r"worst element at index \(1,\): x=nan, y=2.0"):
        testing.assert_allclose([1.0, numpy.nan], [1.0, 2.0])


def test_failure_message_locates_the_worst_element():
    x = numpy.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], numpy.float32)
    y = x.astype(numpy.float64).copy()
    y[0, 1] += 0.01
    y[1, 2] += 0.5
    with pytest.raises(AssertionError) as info:
        testing.assert_allclose(x, y)
    message = str(info.value)
    assert "assert_allclose failed (atol=1e-05, rtol=0.0001)" in message
    assert "shape: x (2, 3), y (2, 3)" in message
    assert "dtype: x float32, y float64" in message
    assert "worst element at index (1, 2): x=6.0, y=6.5, |x - y|=0.5" in message
    assert "allowed atol + rtol * |y|=0.00066" in message
    assert "max |x - y|: 0.5" in message
    assert "Mismatched elements: 2 / 6" in message
    assert "x: [[1. 2. 3.]" in message


def test_worst_element_is_the_largest_excess_not_the_largest_error():
    # 0.05 off at 1000 is within rtol, 0.01 off at 0 is not.
    with pytest.raises(AssertionError, match=r"worst element at index \(0,\): x=0.01, y=0.0"):
        testing.assert_allclose([0.01, 1000.05], [0.0, 1000.0])


def test_scalar_failure():
    with pytest.raises(AssertionError, match=r"worst element at index \(\): x=1.0, y=2.0"):
        testing.assert_allclose(1.0, 2.0)


def test_verbose_false_leaves_out_the_arrays():
    with pytest.raises(AssertionError) as info:
        testing.assert_allclose([1.0], [2.0], verbose=False)
    assert "x: [" not in str(info.value) and "worst element" in str(info.value)


def test_shape_mismatch():
    with pytest.raises(AssertionError, match=r"shape: x \(2,\), y \(3,\)") as info:
        testing.assert_allclose([1.0, 2.0], [1.0, 2.0, 3.0])
    assert "worst element" not in str(info.value)


def test_infinities_and_overflowing_differences_do_not_warn():
    testing.assert_allclose([numpy.inf, -numpy.inf], [numpy.inf, -numpy.inf])
    with pytest.raises(AssertionError, match=r"worst element at index \(0,\): x=inf, y=-inf"):
        testing.assert_allclose([numpy.inf], [-numpy.inf])


def test_rejects_non_numeric_input():
    with pytest.raises(TypeError, match="x must hold numbers, got an array of dtype <U3"):
        testing.assert_allclose(numpy.array(["abc"]), [1.0])
    with pytest.raises(
        TypeError, match="y must be a NumPy, CuPy or ChainerX array.*builtins.dict"
    ):
        testing.assert_allclose([1.0], {"a": 1})


@testing.attr.gpu
def test_cupy_arrays_mix_with_numpy():
    import cupy

    testing.assert_allclose(cupy.arange(3, dtype=cupy.float32), numpy.arange(3))
    with pytest.raises(AssertionError, match="worst element at index"):
        testing.assert_allclose(cupy.zeros(2), numpy.ones(2))


@testing.attr.chainerx
def test_chainerx_arrays_mix_with_numpy():
    import chainerx

    testing.assert_allclose(chainerx.array([1.0, 2.0]), numpy.array([1.0, 2.0]))
    with pytest.raises(AssertionError, match="worst element at index"):
        testing.assert_allclose(chainerx.array([1.0]), numpy.array([2.0]))
