"""Trigger that fires at given iterations or epochs."""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Sequence
from typing import Any

from chainer.training.triggers._position import PositionTracker, check_unit


class ManualScheduleTrigger:
    """Trigger invoked at specified point(s) of iterations or epochs.

    It fires once for each point that the training passed since the previous call.

    Args:
        points: A point or a sequence of points at which to fire (epochs may be fractional).
        unit: ``'iteration'`` or ``'epoch'``.

    Attributes:
        finished (bool): ``True`` once every point has passed (the trainer then skips the
            ``initialize`` of an extension with this trigger on resume).

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater((30, 'epoch'), iter_per_epoch=1)
        >>> def record(trainer):
        ...     print('epoch', trainer.updater.epoch)
        >>> trainer.extend(record, trigger=ManualScheduleTrigger([10, 25], 'epoch'))
        >>> trainer.run()
        epoch 10
        epoch 25
    """

    def __init__(self, points: float | Sequence[float], unit: str) -> None:
        check_unit(unit, "ManualScheduleTrigger")
        if isinstance(points, numbers.Real):
            points = [points]
        points = list(points)
        if not points or not all(isinstance(p, numbers.Real) for p in points):
            raise ValueError(
                f"ManualScheduleTrigger: points must be a number or a non-empty sequence of "
                f"numbers, got {points!r}"
            )
        self.points = points
        self.unit = unit
        self.finished = False
        self._position = PositionTracker(unit)

    def __call__(self, trainer: Any) -> bool:
        """Return whether a point lies after the previous call and at or before this one."""
        previous, current = self._position.advance(trainer.updater)
        fire = any(previous < point <= current for point in self.points)
        self.finished = current >= max(self.points)
        return fire

    def serialize(self, serializer: Any) -> None:
        """Save or load the position at the previous call and ``finished``."""
        self._position.serialize(serializer)
        try:
            self.finished = bool(serializer("finished", self.finished))
        except KeyError:  # saved by an old Chainer: the next call works it out
            warnings.warn(
                "The finished flag of ManualScheduleTrigger is not saved; it is set again at "
                "the next call from the current position.",
                stacklevel=2,
            )
