"""What the iteration- and epoch-based triggers share: checking the unit, reading the position.

A trigger remembers where the trainer stood at its previous call so that it fires when the
schedule point lies between that call and this one, however often it is called.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any

UNITS = ("epoch", "iteration")


def check_unit(unit: Any, trigger_name: str) -> str:
    """Return ``unit`` if it is ``'epoch'`` or ``'iteration'``; raise ``ValueError`` otherwise."""
    if unit not in UNITS:
        raise ValueError(
            f"{trigger_name}: the unit must be either 'epoch' or 'iteration', got {unit!r}"
        )
    return unit


def check_positive(value: Any, what: str) -> None:
    """Raise ``ValueError`` unless ``value`` is a positive real number (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not value > 0:
        raise ValueError(f"{what} must be a positive number, got {value!r}")


class PositionTracker:
    """The trainer's position (iteration or epoch detail) at a trigger's previous call.

    Args:
        unit: ``'epoch'`` (positions are ``updater.epoch_detail``) or ``'iteration'``.
    """

    def __init__(self, unit: str) -> None:
        self.unit = unit
        self.previous_iteration: int = 0
        self.previous_epoch_detail: float = 0.0

    def advance(self, updater: Any) -> tuple[float, float]:
        """Return the ``(previous, current)`` positions and remember the current one."""
        iteration = updater.iteration
        if self.unit == "iteration":
            previous = self.previous_iteration
            if previous < 0:  # lost when resuming from an old snapshot: assume the last step
                previous = iteration - 1
            current = iteration
        else:
            previous = self.previous_epoch_detail
            if previous < 0:
                previous = updater.previous_epoch_detail or 0.0
            current = updater.epoch_detail
        self.previous_iteration = iteration
        if hasattr(updater, "epoch_detail"):
            self.previous_epoch_detail = updater.epoch_detail
        return previous, current

    def serialize(self, serializer: Any) -> None:
        """Save or load the previous position; a snapshot without it makes it a guess."""
        try:
            self.previous_iteration = serializer("previous_iteration", self.previous_iteration)
        except KeyError:
            warnings.warn(
                "The previous value of iteration is not saved. The trigger guesses it from the "
                "current iteration, which is wrong if it is not called at every iteration.",
                stacklevel=3,
            )
            self.previous_iteration = -1
        try:
            self.previous_epoch_detail = serializer(
                "previous_epoch_detail", self.previous_epoch_detail
            )
        except KeyError:
            warnings.warn(
                "The previous value of epoch_detail is not saved. The trigger guesses it from "
                "the updater's previous_epoch_detail.",
                stacklevel=3,
            )
            self.previous_epoch_detail = -1.0
