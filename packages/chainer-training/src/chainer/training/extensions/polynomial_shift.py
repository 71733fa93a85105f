"""Polynomial decay of an optimizer attribute down to zero."""

from __future__ import annotations

from typing import Any

from chainer.training.extensions._shift import OptimizerAttributeShift


class PolynomialShift(OptimizerAttributeShift):
    """Trainer extension to polynomially shift an optimizer attribute.

    After the ``t``-th call the attribute is ``init * (1 - t / max_count) ** rate`` (zero from
    ``t = max_count`` on), stopped at ``target``.

    Args:
        attr: Name of the optimizer attribute.
        rate: Exponent of the decay.
        max_count: Number of calls over which the value decays to zero (usually the length
            of training in the extension's trigger unit).
        init: Initial value; the attribute's value at initialization when ``None``.
        target: Value at which the shift stops, or ``None``.
        optimizer: The optimizer; the trainer's ``'main'`` optimizer when ``None``.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater((75, 'iteration'))  # its updater only counts
        >>> optimizer = chainer.optimizers.SGD(lr=0.1)
        >>> trainer.extend(PolynomialShift('lr', 0.5, max_count=100, optimizer=optimizer))
        >>> trainer.run()
        >>> round(optimizer.lr, 6)
        0.05
    """

    #: Kept from Chainer 1, where it asked the trainer to call the extension before training;
    #: :meth:`initialize` does that job now.
    invoke_before_training = True

    def __init__(
        self,
        attr: str,
        rate: float,
        max_count: int,
        init: float | None = None,
        target: float | None = None,
        optimizer: Any = None,
    ) -> None:
        if not max_count > 0:
            raise ValueError(f"PolynomialShift: max_count must be positive, got {max_count}")
        super().__init__(attr, optimizer, init, target)
        self._rate = rate
        self._max_count = max_count

    def _value_at(self, t: int) -> float:
        decay = max(1 - t / self._max_count, 0)
        return self._clamp(self._init * decay**self._rate, growing=self._rate < 0)
