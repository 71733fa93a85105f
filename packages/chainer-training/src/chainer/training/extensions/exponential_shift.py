"""Exponential decay (or growth) of an optimizer attribute."""

from __future__ import annotations

from typing import Any

from chainer.training.extensions._shift import OptimizerAttributeShift


class ExponentialShift(OptimizerAttributeShift):
    """Trainer extension to exponentially shift an optimizer attribute.

    After the ``t``-th call the attribute is ``init * rate ** t``, stopped at ``target``.

    Args:
        attr: Name of the optimizer attribute (``'lr'``, ``'alpha'``, ...).
        rate: Factor per call (``< 1`` decays, ``> 1`` grows); must not be negative.
        init: Initial value; the attribute's value at initialization when ``None``.
        target: Value at which the shift stops, or ``None``.
        optimizer: The optimizer; the trainer's ``'main'`` optimizer when ``None``.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater((30, 'epoch'))  # its updater only counts
        >>> optimizer = chainer.optimizers.SGD(lr=0.1)
        >>> shift = ExponentialShift('lr', 0.5, optimizer=optimizer)
        >>> trainer.extend(shift, trigger=(10, 'epoch'))
        >>> trainer.run()
        >>> round(optimizer.lr, 6)
        0.0125
    """

    def __init__(
        self,
        attr: str,
        rate: float,
        init: float | None = None,
        target: float | None = None,
        optimizer: Any = None,
    ) -> None:
        if rate < 0:
            raise ValueError(f"ExponentialShift does not support a negative rate, got {rate}")
        super().__init__(attr, optimizer, init, target)
        self._rate = rate

    def _value_at(self, t: int) -> float:
        return self._clamp(self._init * self._rate**t, growing=self._rate > 1)
