"""Trigger that fires once, at its first call (and optionally once more after a resume)."""

from __future__ import annotations

import warnings
from typing import Any


class OnceTrigger:
    """Trigger based on the starting point of the iteration.

    It fires at the first call only. With ``call_on_resume=True`` it also fires at the first
    call after the trainer is resumed from a snapshot.

    Args:
        call_on_resume: Whether to fire again at the first call after resuming.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater()  # its updater only counts iterations
        >>> def show_model_summary(trainer):
        ...     print('training starts')
        >>> trainer.extend(show_model_summary, trigger=OnceTrigger())
        >>> trainer.run()
        training starts
    """

    def __init__(self, call_on_resume: bool = False) -> None:
        self._flag_first = True
        self._flag_resumed = call_on_resume

    @property
    def finished(self) -> bool:
        """Whether the trigger will never fire again."""
        return not (self._flag_first or self._flag_resumed)

    def __call__(self, trainer: Any) -> bool:
        """Return ``True`` at the first call (and the first after a resume, if asked)."""
        fire = not self.finished
        self._flag_first = False
        self._flag_resumed = False
        return fire

    def serialize(self, serializer: Any) -> None:
        """Save or load whether the first call happened."""
        try:
            self._flag_first = bool(serializer("_flag_first", self._flag_first))
        except KeyError:  # saved by an old Chainer, which stored nothing
            warnings.warn(
                "The first-call flag of OnceTrigger is not saved; it is assumed that the first "
                "call happened before the snapshot.",
                stacklevel=2,
            )
            self._flag_first = False
