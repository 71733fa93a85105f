"""Decorators that run one test body with NumPy and with ChainerX and compare what they return."""

import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy

import chainerx
from chainerx.testing import _array


class ignore:
    """Return ``chainerx.testing.ignore()`` from a compared test body to skip the comparison.

    Use it for cases where one of the libraries has no meaningful result to compare.
    """


def _run(
    func: Callable[..., Any], name: str, xp: Any, args: tuple, kwargs: dict, accept_error: tuple
):
    try:
        return func(*args, **{**kwargs, name: xp}), None
    except accept_error as e:
        return None, e


def _is_float16(result: Any) -> bool:
    return isinstance(result, (numpy.ndarray, numpy.generic, chainerx.ndarray)) and (
        result.dtype == numpy.float16
    )


def _compare(check: Callable[[Any, Any], None], np_result: Any, chx_result: Any) -> None:
    """Compares what the NumPy run and the ChainerX run of a test body returned.

    Both must return :class:`ignore` (then nothing is compared), or matching results: NumPy
    arrays or scalars against ChainerX arrays, Python numbers of the same type, or sequences
    of them.
    """
    np_ignored, chx_ignored = isinstance(np_result, ignore), isinstance(chx_result, ignore)
    if np_ignored or chx_ignored:
        assert np_ignored and chx_ignored, (
            f"only one run returned chainerx.testing.ignore(): numpy {np_result!r}, "
            f"chainerx {chx_result!r}"
        )
        return
    assert np_result is not None and chx_result is not None, (
        f"a compared test body must return its result, got numpy {np_result!r}, "
        f"chainerx {chx_result!r}"
    )
    if isinstance(np_result, (tuple, list)):
        assert isinstance(chx_result, (tuple, list)), (
            f"numpy returned a sequence, chainerx {type(chx_result)}"
        )
        assert len(np_result) == len(chx_result), (
            f"lengths differ: {len(np_result)} != {len(chx_result)}"
        )
        for n, c in zip(np_result, chx_result, strict=True):
            _compare(check, n, c)
        return
    assert not isinstance(np_result, chainerx.ndarray), "the numpy run returned a chainerx.ndarray"
    assert not isinstance(chx_result, (numpy.ndarray, numpy.generic)), (
        f"the chainerx run returned a NumPy {type(chx_result).__name__}"
    )
    if isinstance(np_result, (numpy.ndarray, numpy.generic)):
        assert isinstance(chx_result, chainerx.ndarray), (
            f"numpy returned an array, chainerx returned {type(chx_result).__name__}"
        )
    else:
        assert type(np_result) is type(chx_result), (
            f"numpy returned {type(np_result).__name__}, chainerx {type(chx_result).__name__}"
        )
    check(np_result, chx_result)


def _decorate(check: Callable[[Any, Any], None], name: str, accept_error: Any) -> Callable:
    errors = accept_error if isinstance(accept_error, tuple) else (accept_error,)

    def decorator(func: Callable[..., Any]) -> Callable[..., None]:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> None:
            np_result, np_error = _run(func, name, numpy, args, kwargs, errors)
            chx_result, chx_error = _run(func, name, chainerx, args, kwargs, errors)
            if np_error is not None or chx_error is not None:
                assert np_error is not None and chx_error is not None, (
                    f"only one library raised: numpy {np_error!r}, chainerx {chx_error!r}"
                )
                return
            _compare(check, np_result, chx_result)

        # pytest must not see the `xp` argument, which the wrapper supplies.
        signature = inspect.signature(func)
        wrapper.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[p for p in signature.parameters.values() if p.name != name]
        )
        return wrapper

    return decorator


def numpy_chainerx_allclose(
    *,
    rtol: float = 1e-7,
    atol: float = 0,
    float16_rtol: float = 1e-3,
    float16_atol: float = 1e-5,
    equal_nan: bool = True,
    err_msg: str = "",
    verbose: bool = True,
    name: str = "xp",
    dtype_check: bool | None = None,
    strides_check: bool | None = None,
    accept_error: Any = (),
) -> Callable:
    """Runs the test with ``xp=numpy`` and ``xp=chainerx`` and asserts the results are close.

    The body returns an array, a number, or a (nested) tuple/list of them (or
    ``chainerx.testing.ignore()`` from both runs). Results of dtype float16 are compared with
    ``float16_rtol`` and ``float16_atol`` instead of ``rtol`` and ``atol``. If it raises one of
    ``accept_error`` with both libraries, the test passes; with only one, it fails.

    Example:
        >>> @chainerx.testing.numpy_chainerx_allclose(rtol=1e-6)
        ... def test_exp(xp):
        ...     return xp.exp(xp.arange(3, dtype='float32'))
    """

    def check(expected: Any, actual: Any) -> None:
        half = _is_float16(expected) or _is_float16(actual)
        _array.assert_allclose_ex(
            actual,
            expected,
            float16_rtol if half else rtol,
            float16_atol if half else atol,
            equal_nan,
            err_msg,
            verbose,
            dtype_check=True if dtype_check is None else dtype_check,
            strides_check=False if strides_check is None else strides_check,
        )

    return _decorate(check, name, accept_error)


def numpy_chainerx_array_equal(
    *,
    float16_rtol: float | None = None,
    float16_atol: float | None = None,
    err_msg: str = "",
    verbose: bool = True,
    name: str = "xp",
    dtype_check: bool | None = None,
    strides_check: bool | None = None,
    accept_error: Any = (),
) -> Callable:
    """Runs the test with ``xp=numpy`` and ``xp=chainerx`` and asserts equal results.

    Results of dtype float16 are compared within ``float16_rtol``/``float16_atol`` when
    either is given (float16 kernels may round differently from NumPy), exactly otherwise.
    """

    def check(expected: Any, actual: Any) -> None:
        if (float16_rtol is not None or float16_atol is not None) and (
            _is_float16(expected) or _is_float16(actual)
        ):
            _array.assert_allclose_ex(
                actual,
                expected,
                float16_rtol or 0,
                float16_atol or 0,
                True,
                err_msg,
                verbose,
                dtype_check=True if dtype_check is None else dtype_check,
                strides_check=False if strides_check is None else strides_check,
            )
            return
        _array.assert_array_equal_ex(
            actual,
            expected,
            err_msg,
            verbose,
            dtype_check=True if dtype_check is None else dtype_check,
            strides_check=False if strides_check is None else strides_check,
        )

    return _decorate(check, name, accept_error)
