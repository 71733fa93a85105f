"""Extensions that put a value computed from the trainer into the observation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chainer.training import extension


def observe_value(observation_key: str, target_func: Callable[[Any], Any]) -> Callable:
    """Returns a trainer extension to continuously record a value.

    Args:
        observation_key: Key under which the value is recorded in the observation.
        target_func: Function taking the trainer and returning the value.

    Returns:
        An extension (every epoch by default, priority :data:`PRIORITY_WRITER`).

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater()  # its updater only counts iterations
        >>> trainer.extend(observe_value(
        ...     'momentum', lambda trainer: trainer.updater.get_optimizer('main').momentum))
    """

    @extension.make_extension(trigger=(1, "epoch"), priority=extension.PRIORITY_WRITER)
    def _observe_value(trainer: Any) -> None:
        trainer.observation[observation_key] = target_func(trainer)

    return _observe_value


def observe_lr(optimizer_name: str = "main", observation_key: str = "lr") -> Callable:
    """Returns a trainer extension to record the learning rate.

    Args:
        optimizer_name: Name of the optimizer whose ``lr`` is recorded.
        observation_key: Key under which it is recorded.

    Returns:
        An extension (every epoch by default, priority :data:`PRIORITY_WRITER`).

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater()  # its updater only counts iterations
        >>> trainer.extend(observe_lr(), trigger=(1, 'iteration'))
    """
    return observe_value(
        observation_key, lambda trainer: trainer.updater.get_optimizer(optimizer_name).lr
    )
