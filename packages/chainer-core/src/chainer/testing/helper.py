"""Small test helpers: run tests only with given package versions, expect warnings, spy on
objects."""

from __future__ import annotations

import contextlib
import pkgutil
import unittest.mock
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from chainer.testing import _marks, _requirements


def _requirement_skip(caller: str, requirements: tuple[str, ...], run_when_satisfied: bool):
    if not requirements:
        raise ValueError(f"{caller} needs at least one requirement such as 'numpy>=1.26'")
    satisfied, installed = _requirements.check(requirements)
    wanted = ", ".join(requirements)
    if run_when_satisfied:
        skip, reason = not satisfied, f"requires {wanted} (installed: {installed})"
    else:
        skip, reason = satisfied, f"runs only without {wanted} (installed: {installed})"
    pytest = _marks.pytest_module(f"chainer.testing.{caller}")
    mark = pytest.mark.skipif(skip, reason=reason)
    return lambda target: _marks.apply_marks(target, [mark])


def with_requires(*requirements: str) -> Callable[[Any], Any]:
    """Run a test only when the installed distributions meet every requirement.

    Args:
        requirements: PEP 508 requirement strings such as ``'numpy>=1.26'`` or ``'h5py'``.

    Returns:
        A decorator for a test function or class that skips it otherwise.

    Example:
        >>> from chainer import testing
        >>> @testing.with_requires('scipy>=1.10')
        ... def test_against_scipy():
        ...     ...
    """
    return _requirement_skip("with_requires", requirements, run_when_satisfied=True)


def without_requires(*requirements: str) -> Callable[[Any], Any]:
    """Run a test only when the installed distributions do not meet the requirements (for
    example, to test the fallback used when an optional package is missing)."""
    return _requirement_skip("without_requires", requirements, run_when_satisfied=False)


@contextlib.contextmanager
def assert_warns(expected: type[Warning]) -> Iterator[None]:
    """Assert that the ``with`` block issues a warning of category ``expected``.

    Other warnings issued in the block are issued again after it, so none is hidden.

    Raises:
        AssertionError: When no warning of that category was issued.
    """
    if not (isinstance(expected, type) and issubclass(expected, Warning)):
        raise TypeError(f"assert_warns expects a Warning subclass, got {expected!r}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    matched = [w for w in caught if issubclass(w.category, expected)]
    for w in caught:
        if not issubclass(w.category, expected):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)
    if not matched:
        seen = ", ".join(sorted({w.category.__name__ for w in caught})) or "none"
        raise AssertionError(f"{expected.__name__} was not issued (warnings seen: {seen})")


def patch(target: str, *args: Any, **kwargs: Any) -> Any:
    """``unittest.mock.patch`` that, by default, wraps the original object.

    The mock records calls while still calling through to the real ``target``, so a test can
    check how something was called without changing what it does. Give ``wraps`` (or ``new``)
    to override.

    Args:
        target: Dotted name of the object to patch, e.g. ``'chainer.backends.cuda.to_gpu'``.
        args: Passed on to ``unittest.mock.patch``.
        kwargs: Passed on to ``unittest.mock.patch``.

    Example:
        >>> import os
        >>> from chainer import testing
        >>> with testing.patch('os.path.exists') as exists:
        ...     os.path.exists('/')
        True
        >>> exists.call_count
        1
    """
    creates_mock = not args and "new" not in kwargs and "new_callable" not in kwargs
    if creates_mock and "wraps" not in kwargs:
        kwargs["wraps"] = pkgutil.resolve_name(target)
    return unittest.mock.patch(target, *args, **kwargs)
