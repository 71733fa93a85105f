"""Array assertions that accept ChainerX arrays, NumPy arrays and Python numbers alike."""

from typing import Any

import numpy

import chainerx


def _to_numpy(a: Any) -> Any:
    if isinstance(a, chainerx.ndarray):
        return chainerx.to_numpy(a)
    return a


def _check_dtype_and_strides(x: Any, y: Any, dtype_check: bool, strides_check: bool) -> None:
    if dtype_check:
        x_dtype = numpy.asarray(x).dtype
        y_dtype = numpy.asarray(y).dtype
        assert x_dtype == y_dtype, f"dtype mismatch: {x_dtype} != {y_dtype}"
    # Strides depend on the itemsize, so they are compared only along with the dtypes.
    if (
        dtype_check
        and strides_check
        and isinstance(x, (numpy.ndarray, chainerx.ndarray))
        and isinstance(y, (numpy.ndarray, chainerx.ndarray))
    ):
        # Strides only matter where there is more than one element to step over.
        if x.size > 1 and y.size > 1:
            xs = tuple(s for s, d in zip(x.strides, x.shape, strict=True) if d > 1)
            ys = tuple(s for s, d in zip(y.strides, y.shape, strict=True) if d > 1)
            assert xs == ys, f"strides mismatch: {x.strides} != {y.strides}"


def assert_allclose(
    x: Any,
    y: Any,
    rtol: float = 1e-7,
    atol: float = 0,
    equal_nan: bool = True,
    err_msg: str = "",
    verbose: bool = True,
) -> None:
    """Asserts that x and y are equal within the tolerances (``numpy.testing.assert_allclose``)."""
    numpy.testing.assert_allclose(
        _to_numpy(x),
        _to_numpy(y),
        rtol=rtol,
        atol=atol,
        equal_nan=equal_nan,
        err_msg=err_msg,
        verbose=verbose,
    )


def assert_allclose_ex(
    x: Any,
    y: Any,
    rtol: float = 1e-7,
    atol: float = 0,
    equal_nan: bool = True,
    err_msg: str = "",
    verbose: bool = True,
    *,
    dtype_check: bool = True,
    strides_check: bool = True,
) -> None:
    """Like :func:`assert_allclose`, and also compares dtypes and strides unless told not to.

    ``dtype_check=False`` skips the strides too (they depend on the itemsize).
    """
    assert_allclose(x, y, rtol, atol, equal_nan, err_msg, verbose)
    _check_dtype_and_strides(x, y, dtype_check, strides_check)


def assert_array_equal(x: Any, y: Any, err_msg: str = "", verbose: bool = True) -> None:
    """Asserts that x and y have the same shape and elements (NaNs compare equal)."""
    numpy.testing.assert_array_equal(_to_numpy(x), _to_numpy(y), err_msg=err_msg, verbose=verbose)


def assert_array_equal_ex(
    x: Any,
    y: Any,
    err_msg: str = "",
    verbose: bool = True,
    *,
    dtype_check: bool = True,
    strides_check: bool = True,
) -> None:
    """Like :func:`assert_array_equal`, and also compares dtypes and strides unless told not to.

    ``dtype_check=False`` skips the strides too (they depend on the itemsize).
    """
    assert_array_equal(x, y, err_msg, verbose)
    _check_dtype_and_strides(x, y, dtype_check, strides_check)
