"""Inverse decay of an optimizer attribute."""

from __future__ import annotations

from typing import Any

from chainer.training.extensions._shift import OptimizerAttributeShift


class InverseShift(OptimizerAttributeShift):
    """Trainer extension to shift an optimizer attribute.

    After the ``t``-th call the attribute is ``init * (1 + gamma * t) ** (-power)``, stopped at
    ``target``.

    Args:
        attr: Name of the optimizer attribute.
        gamma: Rate of the decay; must not be negative.
        power: Exponent of the decay (a negative power makes the value grow).
        init: Initial value; the attribute's value at initialization when ``None``.
        target: Value at which the shift stops, or ``None``.
        optimizer: The optimizer; the trainer's ``'main'`` optimizer when ``None``.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater((1000, 'iteration'))  # its updater only counts
        >>> optimizer = chainer.optimizers.SGD(lr=0.1)
        >>> trainer.extend(InverseShift('lr', gamma=1e-4, power=0.75, optimizer=optimizer))
        >>> trainer.run()
        >>> round(optimizer.lr, 6)
        0.093101
    """

    def __init__(
        self,
        attr: str,
        gamma: float,
        power: float,
        init: float | None = None,
        target: float | None = None,
        optimizer: Any = None,
    ) -> None:
        if gamma < 0:
            raise ValueError(f"InverseShift does not support a negative gamma, got {gamma}")
        super().__init__(attr, optimizer, init, target)
        self._gamma = gamma
        self._power = power

    def _value_at(self, t: int) -> float:
        value = self._init * (1 + self._gamma * t) ** (-self._power)
        return self._clamp(value, growing=self._power < 0)
