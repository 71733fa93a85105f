"""Run a test several times in one invocation and judge it by how many runs pass.

Meant for tests of stochastic code. On a ``unittest.TestCase`` method every run uses a fresh
instance of the test class with its own ``setUp``/``tearDown``, so runs do not share state. On a
plain pytest function the runs share whatever fixtures pytest passed in.
"""

from __future__ import annotations

import functools
import sys
import traceback
import unittest
from collections.abc import Callable
from typing import Any, TypeVar, cast

_F = TypeVar("_F", bound=Callable[..., Any])


def _skip_exceptions() -> tuple[type[BaseException], ...]:
    # pytest.skip() raises an exception that is not a unittest.SkipTest; look it up only when
    # pytest is already loaded (it always is when pytest runs the test).
    pytest = sys.modules.get("pytest")
    return (unittest.SkipTest, pytest.skip.Exception) if pytest else (unittest.SkipTest,)


def _run_once(func: Callable, args: tuple, kwargs: dict) -> None:
    instance = args[0] if args else None
    if not isinstance(instance, unittest.TestCase):
        func(*args, **kwargs)
        return
    fresh = type(instance)(instance._testMethodName)
    try:
        fresh.setUp()
        try:
            func(fresh, *args[1:], **kwargs)
        finally:
            fresh.tearDown()
    finally:
        fresh.doCleanups()


class _RunCountError(ValueError, AssertionError):
    """Bad ``times``/``min_success`` (v7 asserted them: an AssertionError too)."""


def repeat_with_success_at_least(times: int, min_success: int) -> Callable[[_F], _F]:
    """Run a test up to ``times`` times; it passes when ``min_success`` runs pass.

    Runs stop as soon as the outcome is decided. A run that skips skips the whole test at once
    (as ``unittest.SkipTest`` with its reason, also for ``pytest.skip``).

    Args:
        times: The maximum number of runs (at least 1).
        min_success: The number of passing runs required (0 to ``times``).

    Raises:
        AssertionError: From the decorated test, when too many runs failed; the message gives
            the counts and, after ``first error message:``, the first failure's traceback.
    """
    for name, value in (("times", times), ("min_success", min_success)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    if not (times >= 1 and 0 <= min_success <= times):
        raise _RunCountError(
            f"need times >= 1 and 0 <= min_success <= times, got times={times}, "
            f"min_success={min_success}"
        )

    def decorator(func: _F) -> _F:
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            successes = failures = 0
            first_failure = None
            skips = _skip_exceptions()
            while successes < min_success and failures <= times - min_success:
                try:
                    _run_once(func, args, kwargs)
                except skips as skip:
                    reason = getattr(skip, "msg", None) or (str(skip.args[0]) if skip.args else "")
                    raise unittest.SkipTest(reason) from None
                except Exception:
                    failures += 1
                    if first_failure is None:
                        first_failure = traceback.format_exc()
                else:
                    successes += 1
            if successes < min_success:
                raise AssertionError(
                    f"{func.__qualname__} passed {successes} of {successes + failures} runs, "
                    f"needed {min_success} of at most {times}.\n\nfirst error message:\n"
                    f"{first_failure}"
                )

        return cast(_F, wrapper)

    return decorator


def repeat(times: int) -> Callable[[_F], _F]:
    """Run a test ``times`` times; it passes only when every run passes."""
    return repeat_with_success_at_least(times, times)


def retry(times: int) -> Callable[[_F], _F]:
    """Run a test up to ``times`` times; it passes as soon as one run passes."""
    return repeat_with_success_at_least(times, 1)
