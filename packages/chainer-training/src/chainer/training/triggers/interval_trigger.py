"""Trigger that fires at a fixed interval of iterations or epochs."""

from __future__ import annotations

from typing import Any

from chainer.training.triggers._position import PositionTracker, check_positive, check_unit


class IntervalTrigger:
    """Trigger based on a fixed interval.

    It fires each time the iteration (or the epoch, which may be fractional) reaches a multiple
    of ``period``, even when the trigger is not called at every iteration.

    Args:
        period: Length of the interval (an int for iterations, an int or float for epochs).
        unit: ``'iteration'`` or ``'epoch'``.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> from chainer.training import extensions
        >>> trainer = get_trainer_with_mock_updater()  # its updater only counts iterations
        >>> trainer.extend(extensions.LogReport(), trigger=IntervalTrigger(100, 'iteration'))
    """

    def __init__(self, period: float, unit: str) -> None:
        check_unit(unit, "IntervalTrigger")
        check_positive(period, "IntervalTrigger: period")
        self.period = period
        self.unit = unit
        self._position = PositionTracker(unit)

    def __call__(self, trainer: Any) -> bool:
        """Return whether a multiple of the period was reached since the previous call."""
        previous, current = self._position.advance(trainer.updater)
        return previous // self.period != current // self.period

    def get_training_length(self) -> tuple[float, str]:
        """Return ``(period, unit)``: the length of training when this is the stop trigger."""
        return self.period, self.unit

    def serialize(self, serializer: Any) -> None:
        """Save or load the position at the previous call."""
        self._position.serialize(serializer)

    def __str__(self) -> str:
        return f"{type(self).__name__}({self.period}, {self.unit!r})"

    __repr__ = __str__
