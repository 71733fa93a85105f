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


def _compare(check: Callable[[Any, Any], None], np_result: Any, chx_result: Any) -> None:
    if isinstance(np_result, ignore) or isinstance(chx_result, ignore):
        return
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
    if isinstance(np_result, (numpy.ndarray, numpy.generic)):
        assert isinstance(chx_result, chainerx.ndarray), (
            f"numpy returned an array, chainerx returned {type(chx_result).__name__}"
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
    equal_nan: bool = True,
    err_msg: str = "",
    verbose: bool = True,
    name: str = "xp",
    dtype_check: bool | None = None,
    strides_check: bool | None = None,
    accept_error: Any = (),
) -> Callable:
    """Runs the test with ``xp=numpy`` and ``xp=chainerx`` and asserts the results are close.

    The body returns an array, a number, or a (nested) tuple/list of them. If it raises one of
    ``accept_error`` with both libraries, the test passes; with only one, it fails.

    Example:
        >>> @chainerx.testing.numpy_chainerx_allclose(rtol=1e-6)
        ... def test_exp(xp):
        ...     return xp.exp(xp.arange(3, dtype='float32'))
    """

    def check(expected: Any, actual: Any) -> None:
        _array.assert_allclose_ex(
            actual,
            expected,
            rtol,
            atol,
            equal_nan,
            err_msg,
            verbose,
            dtype_check=True if dtype_check is None else dtype_check,
            strides_check=False if strides_check is None else strides_check,
        )

    return _decorate(check, name, accept_error)


def numpy_chainerx_array_equal(
    *,
    err_msg: str = "",
    verbose: bool = True,
    name: str = "xp",
    dtype_check: bool | None = None,
    strides_check: bool | None = None,
    accept_error: Any = (),
) -> Callable:
    """Runs the test with ``xp=numpy`` and ``xp=chainerx`` and asserts equal results."""

    def check(expected: Any, actual: Any) -> None:
        _array.assert_array_equal_ex(
            actual,
            expected,
            err_msg,
            verbose,
            dtype_check=True if dtype_check is None else dtype_check,
            strides_check=False if strides_check is None else strides_check,
        )

    return _decorate(check, name, accept_error)
