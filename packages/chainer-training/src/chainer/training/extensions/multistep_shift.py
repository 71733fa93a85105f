"""Decay of an optimizer attribute at given points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chainer.training.extensions._shift import OptimizerAttributeShift


class MultistepShift(OptimizerAttributeShift):
    """Trainer extension to shift an optimizer attribute in several steps.

    After the ``t``-th call the attribute is ``init * gamma ** k``, where ``k`` is the number
    of values in ``step_value`` that are at most ``t``.

    Args:
        attr: Name of the optimizer attribute.
        gamma: Factor per step.
        step_value: The calls at which to step (increasing).
        init: Initial value; the attribute's value at initialization when ``None``.
        optimizer: The optimizer; the trainer's ``'main'`` optimizer when ``None``.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater((7, 'iteration'))  # its updater only counts
        >>> optimizer = chainer.optimizers.SGD(lr=0.1)
        >>> trainer.extend(MultistepShift('lr', 0.1, [3, 6], 0.1, optimizer))
        >>> trainer.run()
        >>> round(optimizer.lr, 6)
        0.001
    """

    def __init__(
        self,
        attr: str,
        gamma: float,
        step_value: Sequence[int],
        init: float | None,
        optimizer: Any = None,
    ) -> None:
        super().__init__(attr, optimizer, init)
        self._gamma = gamma
        self._step_value = list(step_value)

    def _value_at(self, t: int) -> float:
        steps = sum(1 for point in self._step_value if t >= point)
        return self._init * self._gamma**steps
