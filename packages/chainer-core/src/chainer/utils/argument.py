"""Keyword-only options read from ``**kwargs``, with errors for unknown and retired names.

Chainer's functions and links take their newer options through ``**kwargs`` so that positional
calls written for older versions keep working::

    def dropout(x, ratio=0.5, **kwargs):
        mask, return_mask = argument.parse_kwargs(
            kwargs, ('mask', None), ('return_mask', False),
            train='train argument is not supported anymore. Use chainer.using_config')
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any


def check_unexpected_kwargs(kwargs: Mapping[str, Any], **unexpected: str) -> None:
    """Raise ``ValueError(message)`` for the first retired option present in ``kwargs``.

    Args:
        kwargs: The keyword arguments a function received.
        unexpected: Retired option names mapped to the message that tells how to migrate.
    """
    for name, message in unexpected.items():
        if name in kwargs:
            raise ValueError(message)


def parse_kwargs(
    kwargs: Mapping[str, Any], *name_and_values: tuple[str, Any], **unexpected: str
) -> tuple[Any, ...]:
    """Read options from ``kwargs`` and reject anything else.

    Args:
        kwargs: The keyword arguments a function received.
        name_and_values: ``(name, default)`` pairs of the accepted options.
        unexpected: Retired option names mapped to the message that tells how to migrate.

    Returns:
        The values of the accepted options, in the order given (defaults where absent).

    Raises:
        ValueError: A retired option was given (the message is the one in ``unexpected``).
        TypeError: Any other unknown option was given.
    """
    return _parse(kwargs, name_and_values, unexpected)


def assert_kwargs_empty(kwargs: Mapping[str, Any]) -> None:
    """Raise ``TypeError`` naming the caller when ``kwargs`` holds anything."""
    _parse(kwargs, (), {})


def _parse(
    kwargs: Mapping[str, Any], pairs: tuple[tuple[str, Any], ...], unexpected: dict[str, str]
) -> tuple[Any, ...]:
    values = tuple(kwargs.get(name, default) for name, default in pairs)
    if len(kwargs) > sum(name in kwargs for name, _ in pairs):
        accepted = {name for name, _ in pairs}
        rest = sorted(name for name in kwargs if name not in accepted)
        check_unexpected_kwargs(dict.fromkeys(rest), **unexpected)
        # Two frames up is the function that received **kwargs (through one public helper).
        code = sys._getframe(2).f_code
        caller = getattr(code, "co_qualname", code.co_name)
        names = ", ".join(map(repr, rest))
        raise TypeError(f"{caller}() got unexpected keyword argument(s) {names}")
    return values
