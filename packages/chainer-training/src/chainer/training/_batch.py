"""Calling a loss or evaluation function with a converted mini-batch."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def call_with_batch(function: Callable, in_arrays: Any) -> Any:
    """Call ``function`` with a converted batch as updaters and evaluators do.

    A tuple is passed as positional arguments, a dict as keyword arguments and anything else
    as the only argument.
    """
    if isinstance(in_arrays, tuple):
        return function(*in_arrays)
    if isinstance(in_arrays, dict):
        return function(**in_arrays)
    return function(in_arrays)


def as_named(objects: Any, what: str) -> dict:
    """Return ``objects`` as a dict with a ``'main'`` entry (one object becomes ``'main'``)."""
    if not isinstance(objects, dict):
        return {"main": objects}
    if "main" not in objects:
        raise KeyError(f"a dict of {what} must have a 'main' entry, got keys {sorted(objects)}")
    return dict(objects)
