"""Trigger that stops training when a monitored value stops improving."""

from __future__ import annotations

import operator
import warnings
from typing import Any

from chainer import reporter
from chainer.training import util
from chainer.utils import argument

_MODES = ("auto", "max", "min")


class EarlyStoppingTrigger:
    """Trigger for Early Stopping.

    Used as the trainer's stop trigger. At every call it accumulates the monitored value; when
    ``check_trigger`` fires it compares the mean since the previous check with the best so far.
    It fires (stopping the training) after ``patience`` checks in a row without improvement, or
    when ``max_trigger`` fires.

    Args:
        check_trigger: When to check the monitored value.
        monitor: Key of the observed value to watch.
        patience: Number of checks without improvement to tolerate (3 when ``None``).
        mode: ``'max'`` (larger is better), ``'min'``, or ``'auto'``: ``'max'`` if the key
            contains ``'accuracy'``, else ``'min'``.
        verbose: Print the chosen direction and the epoch at which training stops.
        max_trigger: Upper bound of the training length.
        patients: Deprecated alias of ``patience`` (keyword only).

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> stop = EarlyStoppingTrigger(monitor='validation/main/loss', patience=2,
        ...                             max_trigger=(50, 'epoch'))
        >>> trainer = get_trainer_with_mock_updater(stop)  # as training.Trainer(updater, stop)
    """

    def __init__(
        self,
        check_trigger: Any = (1, "epoch"),
        monitor: str = "main/loss",
        patience: int | None = None,
        mode: str = "auto",
        verbose: bool = False,
        max_trigger: Any = (100, "epoch"),
        **kwargs: Any,
    ) -> None:
        (patients,) = argument.parse_kwargs(kwargs, ("patients", None))
        if patients is not None:
            if patience is not None:
                raise TypeError(
                    "both 'patience' and 'patients' were given; 'patients' is a deprecated "
                    "alias of 'patience': give only 'patience'"
                )
            patience = patients
        if mode not in _MODES:
            raise ValueError(f"mode must be one of {', '.join(_MODES)}, got {mode!r}")
        self.count = 0
        self.patience = 3 if patience is None else patience
        self.monitor = monitor
        self.verbose = verbose
        self.already_warning = False
        self._max_trigger = util.get_trigger(max_trigger)
        self._interval_trigger = util.get_trigger(check_trigger)
        self._summary = reporter.DictSummary()
        maximize = mode == "max" or (mode == "auto" and "accuracy" in monitor)
        self._operator = operator.gt if maximize else operator.lt
        self.best = float("-inf") if maximize else float("inf")
        if verbose:
            print(f"early stopping: operator is {'greater' if maximize else 'less'}")

    def __call__(self, trainer: Any) -> bool:
        """Return whether training should stop now."""
        observation = trainer.observation
        if self.monitor in observation:
            self._summary.add({self.monitor: observation[self.monitor]})
        if self._max_trigger(trainer):
            return True
        if not self._interval_trigger(trainer):
            return False
        if self.monitor not in observation:
            warnings.warn(f"{self.monitor} is not in observation", stacklevel=2)
            return False
        current = float(self._summary.compute_mean()[self.monitor])
        self._summary = reporter.DictSummary()
        if self._operator(current, self.best):
            self.best = current
            self.count = 0
        else:
            self.count += 1
        if self.count >= self.patience:
            if self.verbose:
                print(f"Epoch {trainer.updater.epoch}: early stopping")
            return True
        return False

    def get_training_length(self) -> tuple[float, str]:
        """Return the length of training given by ``max_trigger`` (an upper bound)."""
        return self._max_trigger.get_training_length()

    def serialize(self, serializer: Any) -> None:
        """Save or load the triggers, the running summary, the best value and the count."""
        for name, trigger in (
            ("max_trigger", self._max_trigger),
            ("interval", self._interval_trigger),
        ):
            if hasattr(trigger, "serialize"):
                trigger.serialize(serializer[name])
        self._summary.serialize(serializer["summary"])
        self.best = float(serializer("best", self.best))
        self.count = int(serializer("count", self.count))
