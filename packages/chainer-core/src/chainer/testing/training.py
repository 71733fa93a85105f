"""A ``Trainer`` driven by a mock updater, for testing trainer extensions and triggers."""

from __future__ import annotations

import numbers
import unittest.mock
from typing import Any


def _mock_updater(iter_per_epoch: float) -> unittest.mock.Mock:
    updater = unittest.mock.Mock()
    updater.get_all_optimizers.return_value = {}
    updater.iteration = 0
    updater.epoch = 0
    updater.epoch_detail = 0.0
    updater.previous_epoch_detail = None
    updater.is_new_epoch = False

    def update() -> None:
        # ``update_core`` stays a Mock child, so tests can count the updates.
        updater.update_core()
        updater.previous_epoch_detail = updater.epoch_detail
        updater.iteration += 1
        updater.epoch = updater.iteration // iter_per_epoch
        updater.epoch_detail = updater.iteration / iter_per_epoch
        updater.is_new_epoch = (updater.iteration - 1) // iter_per_epoch != updater.epoch

    updater.update = update
    return updater


def get_trainer_with_mock_updater(
    stop_trigger: Any = (10, "iteration"), iter_per_epoch: float = 10, extensions: Any = None
) -> Any:
    """Return a ``chainer.training.Trainer`` whose updater only counts iterations.

    Each ``trainer.updater.update()`` advances ``iteration``, ``epoch``, ``epoch_detail``,
    ``previous_epoch_detail`` and ``is_new_epoch`` as if an epoch had ``iter_per_epoch``
    iterations, and calls the mock ``trainer.updater.update_core``. Needs the chainer-training
    distribution.

    Args:
        stop_trigger: The trainer's stop trigger, e.g. ``(10, 'iteration')``.
        iter_per_epoch: Iterations per simulated epoch, a positive number (``1.5``: epochs
            end within iterations 2, 3, 5, ...).
        extensions: Extensions to register on the trainer.

    Example:
        >>> from chainer import testing
        >>> trainer = testing.get_trainer_with_mock_updater((2, 'epoch'), iter_per_epoch=5)
        >>> trainer.run()
        >>> trainer.updater.iteration
        10
    """
    if isinstance(iter_per_epoch, bool) or not isinstance(iter_per_epoch, numbers.Real):
        raise TypeError(f"iter_per_epoch must be a number, got {type(iter_per_epoch).__name__}")
    if not iter_per_epoch > 0:
        raise ValueError(f"iter_per_epoch must be positive, got {iter_per_epoch}")
    # Raises an ImportError naming chainer-training when that distribution is missing.
    from chainer import training

    updater = _mock_updater(iter_per_epoch)
    return training.Trainer(updater, stop_trigger, extensions=extensions or [])
