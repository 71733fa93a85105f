"""Triggers that fire when an observed value reaches a new best (maximum, minimum, ...)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chainer import reporter
from chainer.training import util


class BestValueTrigger:
    """Trigger invoked when specific value becomes best.

    At every call it accumulates the observed ``key``; when ``trigger`` fires it compares the
    mean since the previous check with the best mean so far and fires if it is better.

    Args:
        key: Key of the observed value (``'validation/main/accuracy'``, ...).
        compare: ``compare(best, new)`` returns ``True`` when ``new`` is better than ``best``.
        trigger: When to check the value (a trigger or a ``(period, unit)`` tuple).

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> from chainer.training import extensions
        >>> trainer = get_trainer_with_mock_updater()  # its updater only counts iterations
        >>> model = L.Classifier(L.Linear(3, 2))
        >>> trainer.extend(
        ...     extensions.snapshot_object(model, 'best_model'),
        ...     trigger=BestValueTrigger('validation/main/loss', lambda best, new: new < best))
    """

    def __init__(
        self, key: str, compare: Callable[[float, float], bool], trigger: Any = (1, "epoch")
    ) -> None:
        self._key = key
        self._best_value: float | None = None
        self._interval_trigger = util.get_trigger(trigger)
        self._summary = reporter.DictSummary()
        self._compare = compare

    def __call__(self, trainer: Any) -> bool:
        """Accumulate the value; at a check, return whether its mean is a new best."""
        observation = trainer.observation
        if self._key in observation:
            self._summary.add({self._key: observation[self._key]})
        if not self._interval_trigger(trainer):
            return False
        stats = self._summary.compute_mean()
        if self._key not in stats:
            raise KeyError(
                f"key {self._key!r} was not observed since the previous check (observed keys "
                f"are {sorted(observation)})"
            )
        value = float(stats[self._key])
        self._summary = reporter.DictSummary()
        if self._best_value is None or self._compare(self._best_value, value):
            self._best_value = value
            return True
        return False

    def serialize(self, serializer: Any) -> None:
        """Save or load the check trigger, the running summary and the best value."""
        if hasattr(self._interval_trigger, "serialize"):
            self._interval_trigger.serialize(serializer["interval_trigger"])
        self._summary.serialize(serializer["summary"])
        best = serializer("best_value", self._best_value)
        self._best_value = None if best is None else float(best)


class MaxValueTrigger(BestValueTrigger):
    """Trigger invoked when specific value becomes maximum.

    Args:
        key: Key of the observed value.
        trigger: When to check the value.
    """

    def __init__(self, key: str, trigger: Any = (1, "epoch")) -> None:
        super().__init__(key, lambda max_value, new_value: new_value > max_value, trigger)


class MinValueTrigger(BestValueTrigger):
    """Trigger invoked when specific value becomes minimum.

    Args:
        key: Key of the observed value.
        trigger: When to check the value.
    """

    def __init__(self, key: str, trigger: Any = (1, "epoch")) -> None:
        super().__init__(key, lambda min_value, new_value: new_value < min_value, trigger)
