"""chainerx.testing: assertions, dtype sets and the NumPy-versus-ChainerX decorators."""

import numpy
import pytest

import chainerx
import chainerx.testing


def test_public_names():
    expected = {
        "assert_allclose",
        "assert_allclose_ex",
        "assert_array_equal",
        "assert_array_equal_ex",
        "all_dtypes",
        "float_dtypes",
        "integral_dtypes",
        "signed_integral_dtypes",
        "nonfloat_dtypes",
        "numeric_dtypes",
        "signed_dtypes",
        "unsigned_dtypes",
        "parametrize_dtype_specifier",
        "ignore",
        "numpy_chainerx_allclose",
        "numpy_chainerx_array_equal",
    }
    assert set(chainerx.testing.__all__) == expected


def test_dtype_sets():
    t = chainerx.testing
    assert t.float_dtypes == ("float16", "float32", "float64")
    assert set(t.all_dtypes) == set(t.nonfloat_dtypes) | set(t.float_dtypes)
    assert set(t.numeric_dtypes) == set(t.all_dtypes) - {"bool_"}
    assert set(t.signed_dtypes) == set(t.signed_integral_dtypes) | set(t.float_dtypes)
    assert t.unsigned_dtypes == ("uint8",)
    assert set(t.integral_dtypes) == set(t.signed_integral_dtypes) | {"uint8"}


def test_assertions_accept_mixed_arrays():
    a = chainerx.array([1.0, 2.0])
    chainerx.testing.assert_allclose(a, numpy.array([1.0, 2.0 + 1e-9]), rtol=1e-6)
    chainerx.testing.assert_array_equal(a, [1.0, 2.0])
    with pytest.raises(AssertionError, match="Not equal to tolerance"):
        chainerx.testing.assert_allclose(a, [1.0, 2.1])
    with pytest.raises(AssertionError, match="Arrays are not equal"):
        chainerx.testing.assert_array_equal(a, [1.0, 3.0])


def test_ex_assertions_check_dtype_and_strides():
    a = chainerx.array([[1.0, 2.0], [3.0, 4.0]])
    chainerx.testing.assert_array_equal_ex(a, numpy.array([[1.0, 2.0], [3.0, 4.0]]))
    with pytest.raises(AssertionError, match="dtype mismatch: float64 != float32"):
        chainerx.testing.assert_allclose_ex(a, numpy.array([[1, 2], [3, 4]], numpy.float32))
    with pytest.raises(AssertionError, match=r"strides mismatch: \(8, 16\) != \(16, 8\)"):
        chainerx.testing.assert_array_equal_ex(a.T.copy().T, numpy.array([[1.0, 2.0], [3.0, 4.0]]))
    chainerx.testing.assert_array_equal_ex(
        a.T.copy().T, numpy.array([[1.0, 2.0], [3.0, 4.0]]), strides_check=False
    )
    # Without the dtype check the strides (which follow the itemsize) are not compared either.
    ints = numpy.array([[1, 2], [3, 4]], numpy.int16)
    chainerx.testing.assert_array_equal_ex(a, ints, dtype_check=False)
    with pytest.raises(AssertionError, match="dtype mismatch: float64 != int16"):
        chainerx.testing.assert_array_equal_ex(a, ints, strides_check=False)


@chainerx.testing.parametrize_dtype_specifier("spec", dtypes=["float32", "int8"])
def test_parametrize_dtype_specifier(spec):
    assert chainerx.zeros((1,), spec).dtype in (numpy.float32, numpy.int8)


def test_parametrize_dtype_specifier_spellings():
    mark = chainerx.testing.parametrize_dtype_specifier("spec", dtypes=["int16"])
    assert mark.args == ("spec", ["int16", numpy.dtype("int16"), numpy.int16])
    extra = chainerx.testing.parametrize_dtype_specifier(
        "spec", dtypes=["int16"], additional_args=(None, "foo")
    )
    assert extra.args == ("spec", ["int16", numpy.dtype("int16"), numpy.int16, None, "foo"])
    only_extra = chainerx.testing.parametrize_dtype_specifier(
        "spec", dtypes=[], additional_args=("foo",)
    )
    assert only_extra.args == ("spec", ["foo"])


@chainerx.testing.numpy_chainerx_allclose(rtol=1e-6)
def test_allclose_decorator_runs_both(xp):
    return xp.exp(xp.arange(3, dtype="float32")), xp.zeros((2,), "float64")


@chainerx.testing.numpy_chainerx_array_equal(accept_error=(IndexError,))
def test_array_equal_decorator_accepts_errors_from_both(xp):
    return xp.zeros((2,))[3]


@chainerx.testing.numpy_chainerx_array_equal()
def test_ignore_skips_the_comparison(xp):
    return chainerx.testing.ignore()


def _decorated_pair(decorator, np_result, chx_result):
    @decorator
    def body(xp):
        return np_result if xp is numpy else chx_result

    return body


@pytest.mark.parametrize(
    "np_result,chx_result,message",
    [
        (chainerx.testing.ignore(), chainerx.zeros(1), "only one run returned"),
        (numpy.zeros(1), chainerx.testing.ignore(), "only one run returned"),
        (chainerx.testing.ignore(), None, "only one run returned"),
        (None, None, "must return its result"),
        (numpy.zeros(1), None, "must return its result"),
        (chainerx.zeros(1), chainerx.zeros(1), "numpy run returned a chainerx.ndarray"),
        (numpy.int64(1), numpy.int64(1), "chainerx run returned a NumPy int64"),
        (numpy.zeros(1), numpy.zeros(1), "chainerx run returned a NumPy ndarray"),
        (1.0, 1, "numpy returned float, chainerx int"),
    ],
)
@pytest.mark.parametrize(
    "decorator",
    [chainerx.testing.numpy_chainerx_array_equal(), chainerx.testing.numpy_chainerx_allclose()],
)
def test_decorators_refuse_mismatched_results(decorator, np_result, chx_result, message):
    with pytest.raises(AssertionError, match=message):
        _decorated_pair(decorator, np_result, chx_result)()


def test_float16_tolerances():
    expected = numpy.array([1.0, 2.0], numpy.float16)
    close = chainerx.array([1.0, 2.001953125], "float16")  # one float16 step above 2
    _decorated_pair(chainerx.testing.numpy_chainerx_allclose(), expected, close)()
    strict = chainerx.testing.numpy_chainerx_allclose(float16_rtol=1e-4, float16_atol=0)
    with pytest.raises(AssertionError, match="Not equal to tolerance"):
        _decorated_pair(strict, expected, close)()
    with pytest.raises(AssertionError, match="Arrays are not equal"):
        _decorated_pair(chainerx.testing.numpy_chainerx_array_equal(), expected, close)()
    loose = chainerx.testing.numpy_chainerx_array_equal(float16_rtol=1e-3)
    _decorated_pair(loose, expected, close)()
    # Other dtypes stay exact.
    with pytest.raises(AssertionError, match="Arrays are not equal"):
        _decorated_pair(loose, expected.astype("float32"), close.astype("float32"))()


@chainerx.testing.numpy_chainerx_array_equal()
@pytest.mark.parametrize("n", [1, 2])
def test_decorators_compose_with_parametrize(xp, n):
    return xp.arange(n)


def test_decorator_reports_mismatches():
    @chainerx.testing.numpy_chainerx_array_equal()
    def body(xp):
        return xp.arange(3) if xp is numpy else xp.arange(1, 4)

    with pytest.raises(AssertionError, match="Arrays are not equal"):
        body()

    @chainerx.testing.numpy_chainerx_array_equal(accept_error=(IndexError,))
    def one_sided(xp):
        if xp is numpy:
            raise IndexError("only numpy")
        return xp.zeros(1)

    with pytest.raises(AssertionError, match="only one library raised"):
        one_sided()

    @chainerx.testing.numpy_chainerx_allclose()
    def wrong_type(xp):
        return xp.zeros(1) if xp is numpy else 0.0

    with pytest.raises(AssertionError, match="numpy returned an array, chainerx returned float"):
        wrong_type()
