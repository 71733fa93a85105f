"""Linear warm-up of an optimizer attribute."""

from __future__ import annotations

from typing import Any

from chainer.training.extensions._shift import OptimizerAttributeShift


class WarmupShift(OptimizerAttributeShift):
    """Trainer extension to gradually initialize an optimizer attribute.

    The attribute starts at ``warmup_start`` and moves linearly to ``init``, reached after
    ``warmup_iter`` calls and kept from then on.

    Args:
        attr: Name of the optimizer attribute.
        warmup_start: Value at the start of training.
        warmup_iter: Number of calls over which the value reaches ``init``.
        init: Value after the warm-up.
        optimizer: The optimizer; the trainer's ``'main'`` optimizer when ``None``.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater((250, 'iteration'))  # its updater only counts
        >>> optimizer = chainer.optimizers.SGD(lr=0.1)
        >>> trainer.extend(WarmupShift('lr', 0.001, 500, 0.1, optimizer=optimizer))
        >>> trainer.run()
        >>> round(optimizer.lr, 6)
        0.0505
    """

    def __init__(
        self,
        attr: str,
        warmup_start: float,
        warmup_iter: int,
        init: float,
        optimizer: Any = None,
    ) -> None:
        if not warmup_iter > 0:
            raise ValueError(f"WarmupShift: warmup_iter must be positive, got {warmup_iter}")
        super().__init__(attr, optimizer, init)
        self._warmup_start = warmup_start
        self._warmup_iter = warmup_iter

    def _start_value(self, optimizer: Any) -> float:
        return self._warmup_start

    def _value_at(self, t: int) -> float:
        if t >= self._warmup_iter:
            return self._init
        return self._warmup_start + (self._init - self._warmup_start) * t / self._warmup_iter
