"""Step decay of an optimizer attribute."""

from __future__ import annotations

from typing import Any

from chainer.training.extensions._shift import OptimizerAttributeShift


class StepShift(OptimizerAttributeShift):
    """Trainer extension to shift an optimizer attribute in "steps".

    After the ``t``-th call the attribute is ``init * gamma ** floor(t / step)``, stopped at
    ``target``.

    Args:
        attr: Name of the optimizer attribute.
        gamma: Factor per step.
        step: Number of calls per step.
        init: Initial value; the attribute's value at initialization when ``None``.
        target: Value at which the shift stops, or ``None``.
        optimizer: The optimizer; the trainer's ``'main'`` optimizer when ``None``.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater((60, 'epoch'))  # its updater only counts
        >>> optimizer = chainer.optimizers.SGD(lr=0.1)
        >>> shift = StepShift('lr', 0.1, step=30, optimizer=optimizer)
        >>> trainer.extend(shift, trigger=(1, 'epoch'))
        >>> trainer.run()
        >>> round(optimizer.lr, 6)
        0.001
    """

    def __init__(
        self,
        attr: str,
        gamma: float,
        step: int,
        init: float | None = None,
        target: float | None = None,
        optimizer: Any = None,
    ) -> None:
        if not step > 0:
            raise ValueError(f"StepShift: step must be positive, got {step}")
        super().__init__(attr, optimizer, init, target)
        self._gamma = gamma
        self._step = step

    def _value_at(self, t: int) -> float:
        value = self._init * self._gamma ** (t // self._step)
        return self._clamp(value, growing=self._gamma > 1)
