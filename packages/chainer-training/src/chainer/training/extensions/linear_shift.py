"""Linear change of an optimizer attribute between two points."""

from __future__ import annotations

from typing import Any

from chainer.training.extensions._shift import OptimizerAttributeShift


class LinearShift(OptimizerAttributeShift):
    """Trainer extension to change an optimizer attribute linearly.

    The attribute is ``value_range[0]`` up to call ``time_range[0]``, then moves linearly to
    ``value_range[1]``, reached at call ``time_range[1]`` and kept from then on.

    Args:
        attr: Name of the optimizer attribute.
        value_range: ``(first value, last value)``.
        time_range: ``(call where the change starts, call where it ends)``.
        optimizer: The optimizer; the trainer's ``'main'`` optimizer when ``None``.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater((5000, 'iteration'))  # its updater only counts
        >>> optimizer = chainer.optimizers.SGD(lr=0.1)
        >>> shift = LinearShift('lr', (0.1, 0.001), (1000, 9000), optimizer=optimizer)
        >>> trainer.extend(shift)
        >>> trainer.run()
        >>> round(optimizer.lr, 6)
        0.0505
    """

    def __init__(
        self,
        attr: str,
        value_range: tuple[float, float],
        time_range: tuple[int, int],
        optimizer: Any = None,
    ) -> None:
        super().__init__(attr, optimizer)
        self._value_range = value_range
        self._time_range = time_range

    def _start_value(self, optimizer: Any) -> float:
        return self._value_at(self._t)

    def _value_at(self, t: int) -> float:
        (t1, t2), (v1, v2) = self._time_range, self._value_range
        if t <= t1:
            return v1
        if t >= t2:
            return v2
        return v1 + (v2 - v1) * (t - t1) / (t2 - t1)
