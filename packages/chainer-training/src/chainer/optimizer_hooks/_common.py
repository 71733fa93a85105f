"""Argument checks and gradient arithmetic shared by the optimizer hooks."""

from __future__ import annotations

import numbers
from typing import Any

import numpy


def real_number(owner: str, name: str, value: Any) -> float:
    """Return ``value`` if it is a real number, else raise a :class:`TypeError` naming it."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"{owner}: {name} must be a real number, got {type(value).__name__} {value!r}"
        )
    return value


def grad_scale(param) -> float:
    """The loss scale the gradient of ``param`` still carries (1 once the rule unscaled it).

    Optimizer hooks run before the update rules divide the loss scale out of the gradients,
    so hooks multiply their own contributions by it to act on the true gradient.
    """
    return 1.0 if param._loss_scale is None else param._loss_scale


def squared_norm(array) -> float:
    """The squared L2 norm of ``array`` as a Python float, accumulated in float32 or wider."""
    flat = array.ravel()
    if flat.dtype == numpy.float16:
        # float16 sums of squares overflow at 65504.
        flat = flat.astype(numpy.float32)
    return float(flat.dot(flat))
