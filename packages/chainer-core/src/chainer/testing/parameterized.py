"""Parameterized tests: run one test body over many parameter sets.

:func:`parameterize` works on ``unittest.TestCase`` classes, on pytest-style test classes and on
plain pytest test functions. On a class it generates one subclass per parameter set, with the
parameters as class attributes, named after them (``TestFoo_param_0_{dtype=float32, n=3}``),
and removes the original class from its module. On a function it becomes
``pytest.mark.parametrize`` over the parameter names.
"""

from __future__ import annotations

import itertools
import types
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from chainer.testing import _bundle, _marks

_MAX_VALUE_TEXT = 40


def _value_text(value: Any) -> str:
    # Types and functions read best by name (``float32``, not ``<class 'numpy.float32'>``).
    name = getattr(value, "__name__", None)
    if isinstance(name, str) and (isinstance(value, type) or callable(value)):
        return name
    text = " ".join(repr(value).split())
    if len(text) > _MAX_VALUE_TEXT:
        text = text[: _MAX_VALUE_TEXT - 3] + "..."
    return text


def _describe(params: dict[str, Any]) -> str:
    """``'key=value, ...'``: how a parameter set appears in generated test names."""
    return ", ".join(f"{key}={_value_text(value)}" for key, value in params.items())


def _check_param_sets(caller: str, params: Sequence[Any]) -> None:
    for index, param in enumerate(params):
        if not isinstance(param, dict):
            raise TypeError(
                f"{caller} expects dicts of parameters, got {type(param).__name__} "
                f"{param!r} at position {index}"
            )
        for key in param:
            if not isinstance(key, str) or not key.isidentifier():
                raise TypeError(
                    f"{caller}: parameter names must be identifiers, got {key!r} "
                    f"at position {index}"
                )


def _parametrize_function(func: Callable, params: tuple[dict[str, Any], ...]) -> Callable:
    pytest = _marks.pytest_module("chainer.testing.parameterize on a test function")
    if not params:
        return pytest.mark.skip(reason="parameterize() was given no parameter sets")(func)
    names = list(params[0])
    for index, param in enumerate(params):
        if set(param) != set(names):
            raise ValueError(
                f"parameterize on function {func.__name__}: every parameter set must have the "
                f"same names; position 0 has {sorted(names)}, position {index} has "
                f"{sorted(param)}"
            )
    values = [pytest.param(*(p[name] for name in names), id=_describe(p)) for p in params]
    return pytest.mark.parametrize(names, values)(func)


def parameterize(*params: dict[str, Any]) -> Callable[[Any], Any]:
    """Generate one test per parameter set.

    Args:
        params: Dicts mapping parameter names to values.

    Returns:
        A decorator for a test class (``unittest.TestCase`` or pytest style) or a pytest test
        function. A class gets one generated subclass per dict, holding the parameters as class
        attributes (``self.dtype``; a function value is not bound, so ``self.f(x)`` calls
        ``f(x)``); the decorated name then refers to a record of the generated classes, not to
        a class. A function gets ``pytest.mark.parametrize`` with the names as
        arguments (every dict must have the same names).

    Example:
        >>> import unittest
        >>> from chainer import testing
        >>> @testing.parameterize(*testing.product({'dtype': [numpy.float32, numpy.float64],
        ...                                          'shape': [(3,), (2, 2)]}))
        ... class TestSum(unittest.TestCase):
        ...     def test_sum(self):
        ...         x = numpy.ones(self.shape, self.dtype)
        ...         assert x.sum() == x.size
    """
    _check_param_sets("parameterize", params)

    def class_cases(base: type) -> Iterable[tuple[str, dict[str, Any]]]:
        for index, param in enumerate(params):
            # A function-valued parameter stays a plain function: self.f(x) calls f(x).
            attributes = {
                key: staticmethod(value) if isinstance(value, types.FunctionType) else value
                for key, value in param.items()
            }
            yield f"{base.__name__}_param_{index}_{{{_describe(param)}}}", attributes

    def decorator(target: Any) -> Any:
        if isinstance(target, (type, _bundle.GeneratedTestClasses)):
            return _bundle.expand("parameterize", target, class_cases)
        if callable(target):
            return _parametrize_function(target, params)
        raise TypeError(
            f"parameterize decorates a test class or function, got {type(target).__name__}"
        )

    return decorator


def product(parameter: dict[str, Sequence[Any]] | list[list[dict[str, Any]]]) -> list[dict]:
    """Every combination of parameter values.

    Args:
        parameter: Either a dict mapping each name to a list of candidate values, or a list of
            lists of dicts (then the same as ``product_dict(*parameter)``). A comma-separated
            key (``'shape,fans'``) names several parameters that vary together: each of its
            candidates holds one value per name.

    Returns:
        A list of dicts, one per combination. For a dict argument the names are taken in sorted
        order and the last name varies fastest.

    Example:
        >>> from chainer import testing
        >>> testing.product({'a': [1, 2], 'b': ['x']})
        [{'a': 1, 'b': 'x'}, {'a': 2, 'b': 'x'}]
    """
    if isinstance(parameter, dict):
        keys = sorted(parameter)
        for key in keys:
            candidates = parameter[key]
            if not isinstance(candidates, (list, tuple, range)):
                raise TypeError(
                    f"product: the value of {key!r} must be a list of candidate values, got "
                    f"{type(candidates).__name__} {candidates!r}"
                )
        combos = itertools.product(*(parameter[key] for key in keys))
        return [_merge_named_values(keys, values) for values in combos]
    if isinstance(parameter, list):
        return product_dict(*parameter)
    raise TypeError(
        "product expects a dict of lists or a list of lists of dicts, got "
        f"{type(parameter).__name__}"
    )


def _merge_named_values(keys: Sequence[str], values: Sequence[Any]) -> dict[str, Any]:
    """One parameter dict; a key ``'a,b'`` names several parameters, its value one per name."""
    merged: dict[str, Any] = {}
    for key, value in zip(keys, values):
        if "," not in key:
            merged[key] = value
            continue
        names = [name.strip() for name in key.split(",")]
        if not isinstance(value, (list, tuple)) or len(value) != len(names):
            raise ValueError(
                f"product: each value of {key!r} must be a list or tuple of {len(names)} "
                f"values, got {value!r}"
            )
        merged.update(zip(names, value))
    return merged


def product_dict(*parameters: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every combination of one dict from each list, merged into one dict.

    Args:
        parameters: Lists of dicts. When dicts of one combination share a name, the later
            list's value wins.

    Returns:
        A list of merged dicts; the last list varies fastest.

    Example:
        >>> from chainer import testing
        >>> testing.product_dict([{'a': 1}, {'a': 2}], [{'b': 3, 'c': 4}])
        [{'a': 1, 'b': 3, 'c': 4}, {'a': 2, 'b': 3, 'c': 4}]
    """
    for position, dicts in enumerate(parameters):
        if not isinstance(dicts, (list, tuple)):
            raise TypeError(
                f"product_dict expects lists of dicts, got {type(dicts).__name__} at argument "
                f"{position}"
            )
        _check_param_sets(f"product_dict (argument {position})", dicts)
    merged = []
    for combination in itertools.product(*parameters):
        entry: dict[str, Any] = {}
        for part in combination:
            entry.update(part)
        merged.append(entry)
    return merged


# v7 compatibility: v7's name of the original product_dict, for code (v7's conftest) that swaps
# product_dict and restores it.
_product_dict_orig = product_dict


def from_pytest_parameterize(names: str | Sequence[str], values: Iterable[Any]) -> list[dict]:
    """Convert ``pytest.mark.parametrize``-style arguments to a list of parameter dicts.

    Args:
        names: Comma-separated names (``'x, y'``) or a sequence of names.
        values: One tuple of values per test (a bare value when there is only one name).

    Returns:
        A list of dicts for :func:`parameterize`.
    """
    if isinstance(names, str):
        names = [name.strip() for name in names.split(",") if name.strip()]
    names = list(names)
    result = []
    for index, value in enumerate(values):
        row = (value,) if len(names) == 1 else tuple(value)
        if len(row) != len(names):
            raise ValueError(
                f"from_pytest_parameterize: {len(names)} names {names} but {len(row)} values "
                f"{row!r} at position {index}"
            )
        result.append(dict(zip(names, row)))
    return result


def parameterize_pytest(names: str | Sequence[str], values: Iterable[Any]) -> Callable:
    """:func:`parameterize` with ``pytest.mark.parametrize``-style arguments.

    Example:
        >>> import unittest
        >>> from chainer import testing
        >>> @testing.parameterize_pytest('dtype, n', [(numpy.float32, 1), (numpy.float64, 2)])
        ... class TestFoo(unittest.TestCase):
        ...     ...
    """
    return parameterize(*from_pytest_parameterize(names, values))
