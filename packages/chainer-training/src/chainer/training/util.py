"""Turning the many accepted forms of a trigger into a trigger object."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chainer.training.triggers.interval_trigger import IntervalTrigger


def _never_fire_trigger(trainer: Any) -> bool:
    return False


def get_trigger(trigger: Any) -> Callable[[Any], bool]:
    """Return a trigger object for ``trigger``.

    Args:
        trigger: A callable taking the trainer and returning a bool (returned as it is), a
            ``(period, unit)`` tuple with ``unit`` either ``'epoch'`` or ``'iteration'``
            (an :class:`~chainer.training.triggers.IntervalTrigger`), or ``None`` (a trigger
            that never fires).

    Returns:
        The trigger.

    Example:
        >>> get_trigger((5, 'epoch'))
        IntervalTrigger(5, 'epoch')
    """
    if callable(trigger):
        return trigger
    if trigger is None:
        return _never_fire_trigger
    if not (isinstance(trigger, (tuple, list)) and len(trigger) == 2):
        raise TypeError(
            "a trigger must be a callable taking the trainer, a (period, unit) tuple or None, "
            f"got {trigger!r}"
        )
    return IntervalTrigger(*trigger)
