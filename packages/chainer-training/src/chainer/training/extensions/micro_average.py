"""Ratio of two observed sums over an interval (micro-average)."""

from __future__ import annotations

from typing import Any

from chainer import reporter
from chainer.training import extension, util
from chainer.variable import Variable


def _as_number(value: Any) -> Any:
    if isinstance(value, Variable):
        value = value.array
    return value.item() if hasattr(value, "item") else value


class MicroAverage(extension.Extension):
    """Calculates micro-average ratio.

    It sums the observed numerator and denominator over each interval of ``trigger`` and then
    reports ``sum(numerators) / sum(denominators)`` as ``result_key``. For example, the
    accuracy over an epoch is the number of correct examples over the number of examples,
    which differs from the mean of per-batch accuracies when batch sizes differ.

    Args:
        numerator_key: Key of the observed numerator (e.g. the number of correct answers).
        denominator_key: Key of the observed denominator (e.g. the number of examples).
        result_key: Key under which the ratio is reported.
        trigger: When to report the ratio and start a new interval.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater()  # its updater only counts iterations
        >>> trainer.extend(MicroAverage('main/correct', 'main/total', 'main/accuracy'))
    """

    priority = extension.PRIORITY_EDITOR

    def __init__(
        self,
        numerator_key: str,
        denominator_key: str,
        result_key: str,
        trigger: Any = (1, "epoch"),
    ) -> None:
        self._trigger = util.get_trigger(trigger)
        self._numerator_key = numerator_key
        self._denominator_key = denominator_key
        self._result_key = result_key
        self._numerator: Any = 0
        self._denominator: Any = 0

    def __call__(self, trainer: Any) -> None:
        """Add this iteration's values; at the end of an interval, report the ratio."""
        observation = trainer.observation
        if self._numerator_key not in observation or self._denominator_key not in observation:
            return
        self._numerator += _as_number(observation[self._numerator_key])
        self._denominator += _as_number(observation[self._denominator_key])
        if self._trigger(trainer):
            result = float(self._numerator) / self._denominator
            self._numerator = 0
            self._denominator = 0
            reporter.report({self._result_key: result})

    def serialize(self, serializer: Any) -> None:
        """Save or load the trigger and the running sums."""
        if hasattr(self._trigger, "serialize"):
            self._trigger.serialize(serializer["_trigger"])
        self._numerator = _as_number(serializer("_numerator", self._numerator))
        self._denominator = _as_number(serializer("_denominator", self._denominator))
