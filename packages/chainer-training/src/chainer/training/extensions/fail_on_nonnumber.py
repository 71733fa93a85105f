"""Stopping the training as soon as a parameter becomes NaN or infinite."""

from __future__ import annotations

from typing import Any

from chainer.training import extension


class FailOnNonNumber(extension.Extension):
    """Trainer extension to raise RuntimeError if parameters contain NaN or Inf.

    Checked after every update (by default), it stops a diverging training early, before
    snapshots and logs are filled with NaN.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater()  # its updater only counts iterations
        >>> trainer.extend(FailOnNonNumber())
    """

    def __call__(self, trainer: Any) -> None:
        """Raise ``RuntimeError`` if any initialized parameter holds NaN or infinity."""
        for name, optimizer in trainer.updater.get_all_optimizers().items():
            for path, param in optimizer.target.namedparams(include_uninit=False):
                if not bool(param.xp.isfinite(param.array).all()):
                    raise RuntimeError(
                        f"Kill the process since parameters in optimizer {name!r} diverge "
                        f"(parameter {path!r} holds NaN or Inf). R.I.P."
                    )
