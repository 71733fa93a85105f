"""Make random numbers in tests reproducible.

:func:`fix_random` seeds Python's ``random``, NumPy's global generator and, when a GPU can be
used, CuPy's, before a test (or its setup) runs, and restores their previous states afterwards.
"""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Callable
from typing import Any

import numpy

from chainer.testing import _marks
from chainer.testing._bundle import GeneratedTestClasses

# The seed every fixed test starts from.
_SEED = 0

# States saved by the active fix_random scopes, innermost last.
_saved_states: list[tuple[Any, Any, Any]] = []


def _cupy_random():
    # CuPy is consulted only when a GPU can be used, so CPU-only runs never import it.
    if _marks.gpu_count() == 0:
        return None
    return importlib.import_module("cupy").random


def _enter_fixed_state() -> None:
    cupy_random = _cupy_random()
    cupy_state = None
    if cupy_random is not None:
        cupy_state = cupy_random.get_random_state()
        cupy_random.set_random_state(cupy_random.RandomState(_SEED))
    _saved_states.append((random.getstate(), numpy.random.get_state(), cupy_state))
    random.seed(_SEED)
    numpy.random.seed(_SEED)


def _restore_state() -> None:
    python_state, numpy_state, cupy_state = _saved_states.pop()
    random.setstate(python_state)
    numpy.random.set_state(numpy_state)
    if cupy_state is not None:
        importlib.import_module("cupy").random.set_random_state(cupy_state)


def generate_seed() -> int:
    """Draw a seed from NumPy's fixed generator, for code that takes an explicit seed.

    Raises:
        RuntimeError: Outside a test decorated with :func:`fix_random`, where the seed would
            not be reproducible.
    """
    if not _saved_states:
        raise RuntimeError(
            "generate_seed() must be called inside a test decorated with "
            "chainer.testing.fix_random()"
        )
    return int(numpy.random.randint(0, 2**32 - 1, dtype=numpy.int64))


def _fix_class(cls: type, setup_method: str, teardown_method: str) -> type:
    original_setup = getattr(cls, setup_method, None)
    original_teardown = getattr(cls, teardown_method, None)

    def setup(self, *args, **kwargs):
        _enter_fixed_state()
        if original_setup is not None:
            try:
                original_setup(self, *args, **kwargs)
            except BaseException:
                # A failing setup means no teardown will run to restore the states.
                _restore_state()
                raise

    def teardown(self, *args, **kwargs):
        try:
            if original_teardown is not None:
                original_teardown(self, *args, **kwargs)
        finally:
            _restore_state()

    for name, method in ((setup_method, setup), (teardown_method, teardown)):
        method.__name__ = name
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, method)
    return cls


def _fix_function(func: Callable) -> Callable:
    @functools.wraps(func)
    def fixed(*args, **kwargs):
        _enter_fixed_state()
        try:
            return func(*args, **kwargs)
        finally:
            _restore_state()

    return fixed


def fix_random(
    *, setup_method: str = "setUp", teardown_method: str = "tearDown"
) -> Callable[[Any], Any]:
    """Fix the random generators for a test function or every test of a class.

    Random numbers drawn in the test (and in a class's setup) are the same in every run.
    Do not combine with :mod:`chainer.testing.condition` decorators, whose runs would then all
    draw the same numbers.

    Args:
        setup_method: For a class, the method that runs before each test (``'setUp'``; use
            ``'setup_method'`` for pytest-style classes). It is created when missing.
        teardown_method: For a class, the method that runs after each test (``'tearDown'`` or
            ``'teardown_method'``).

    Example:
        >>> import unittest
        >>> from chainer import testing
        >>> @testing.fix_random()
        ... class TestDropout(unittest.TestCase):
        ...     def setUp(self):
        ...         self.x = numpy.random.uniform(-1, 1, (2, 3))  # same in every run
    """

    def decorator(target: Any) -> Any:
        if isinstance(target, type):
            return _fix_class(target, setup_method, teardown_method)
        if isinstance(target, GeneratedTestClasses):
            for cls in target.classes:
                _fix_class(cls, setup_method, teardown_method)
            return target
        if callable(target):
            return _fix_function(target)
        raise TypeError(
            f"fix_random decorates a test class or function, got {type(target).__name__}"
        )

    return decorator
