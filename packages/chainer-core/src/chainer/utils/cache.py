"""Caching of values computed from Chainer functions."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from chainer.configuration import config


def cached_property(getter: Callable[[Any], Any]) -> property:
    """A read-only property computed once per instance and per backprop mode.

    A value computed while ``chainer.config.enable_backprop`` is on carries a computational
    graph and one computed while it is off does not, so each mode keeps its own cached value.

    Example:
        >>> class Normal:
        ...     @cached_property
        ...     def variance(self):
        ...         return F.square(self.scale)
    """
    slot = f"_cached_{getter.__name__}"

    @functools.wraps(getter)
    def get(self: Any) -> Any:
        cache = self.__dict__.setdefault(slot, {})
        mode = bool(config.enable_backprop)
        if mode not in cache:
            cache[mode] = getter(self)
        return cache[mode]

    prop = _NamedProperty(get)
    prop.__name__ = getter.__name__
    return prop


class _NamedProperty(property):
    """A property that knows its name (``__name__``, as v7's cached properties have)."""

    __name__: str
