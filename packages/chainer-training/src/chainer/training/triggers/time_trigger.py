"""Trigger that fires at a fixed interval of wall-clock training time."""

from __future__ import annotations

from typing import Any

from chainer.training.triggers._position import check_positive


class TimeTrigger:
    """Trigger based on a fixed time interval.

    It fires at the first call after each ``period`` seconds of
    :attr:`Trainer.elapsed_time <chainer.training.Trainer.elapsed_time>` (which continues across
    a resume).

    Args:
        period: Interval in seconds.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> from chainer.training import extensions
        >>> trainer = get_trainer_with_mock_updater()  # its updater only counts iterations
        >>> trainer.extend(extensions.snapshot(), trigger=TimeTrigger(600))
    """

    def __init__(self, period: float) -> None:
        check_positive(period, "TimeTrigger: period")
        self._period = period
        self._next_time = period

    def __call__(self, trainer: Any) -> bool:
        """Return whether the next multiple of the period has passed, then schedule the next."""
        if trainer.elapsed_time < self._next_time:
            return False
        self._next_time += self._period
        return True

    def serialize(self, serializer: Any) -> None:
        """Save or load the time of the next firing."""
        self._next_time = float(serializer("next_time", self._next_time))
