"""Base of the extensions that set an optimizer attribute (``lr``, ...) from a schedule.

The schedule is a function of ``t``, the number of calls so far. ``initialize`` sets the value
for ``t = 0``, or, on a trainer resumed from a snapshot, the last value set before the
snapshot, so the first update after a resume uses exactly the value it would have used.
"""

from __future__ import annotations

from typing import Any

import numpy

from chainer.training import extension


class OptimizerAttributeShift(extension.Extension):
    """Sets ``optimizer.<attr>`` to the schedule's value after every call.

    Subclasses implement :meth:`_value_at`; those whose schedule starts elsewhere than at
    ``init`` (the attribute's value at initialization when not given) override
    :meth:`_start_value`.

    Args:
        attr: Name of the optimizer attribute.
        optimizer: The optimizer; the trainer's ``'main'`` optimizer when ``None``.
        init: Value at ``t = 0``; read from the optimizer at initialization when ``None``.
        target: Bound the value stops at (see :meth:`_clamp`), or ``None``.
    """

    def __init__(self, attr: str, optimizer: Any, init: Any = None, target: Any = None) -> None:
        self._attr = attr
        self._optimizer = optimizer
        self._init = init
        self._target = target
        self._t = 0
        self._last_value: Any = None

    def initialize(self, trainer: Any) -> None:
        optimizer = self._get_optimizer(trainer)
        start = self._start_value(optimizer)  # also reads init from the optimizer if needed
        resumed = self._last_value is not None  # loaded from a snapshot
        self._update_value(optimizer, self._last_value if resumed else start)

    def __call__(self, trainer: Any) -> None:
        self._t += 1
        self._update_value(self._get_optimizer(trainer), self._value_at(self._t))

    def serialize(self, serializer: Any) -> None:
        self._t = int(serializer("_t", self._t))
        last = serializer("_last_value", self._last_value)
        self._last_value = last.item() if isinstance(last, numpy.ndarray) else last

    def _start_value(self, optimizer: Any) -> Any:
        if self._init is None:
            self._init = getattr(optimizer, self._attr)
        return self._init

    def _value_at(self, t: int) -> Any:
        raise NotImplementedError

    def _clamp(self, value: Any, growing: bool) -> Any:
        """Stop at ``target``: a growing schedule never exceeds it in magnitude, a shrinking
        one never falls below it (so negative values work too)."""
        if self._target is None:
            return value
        passed = abs(value) > abs(self._target) if growing else abs(value) < abs(self._target)
        return self._target if passed else value

    def _get_optimizer(self, trainer: Any) -> Any:
        return self._optimizer or trainer.updater.get_optimizer("main")

    def _update_value(self, optimizer: Any, value: Any) -> None:
        setattr(optimizer, self._attr, value)
        self._last_value = value
