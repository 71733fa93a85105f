"""Progress bar of the training: position, speed and estimated time to finish."""

from __future__ import annotations

import sys
from typing import IO, Any

from chainer.training import extension
from chainer.training.extensions import util


class ProgressBar(extension.Extension):
    """Trainer extension to print a progress bar and recent training status.

    Every ``update_interval`` iterations it shows one status line: a bar of the whole
    training, the current epoch and its progress, the iteration, the speed in iterations per
    second and the estimated time to finish, e.g.::

        [##########..........]  50.00% | epoch 5 (0.00%) / 10 epochs | iter 500 | 1.3e+03
        iters/sec | ETA 0:00:01

    (one line, wrapped here).

    On a terminal the line is redrawn in place (and :class:`PrintReport` lines appear above
    it); when ``out`` is a file or a pipe each update is a new plain line, readable in a log.

    Args:
        training_length: ``(length, unit)`` of the training; the stop trigger's
            ``get_training_length()`` when ``None``.
        update_interval: Number of iterations between updates of the display.
        bar_length: Number of cells of the bar (fewer on a narrow terminal).
        out: The stream.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> trainer = get_trainer_with_mock_updater()  # its updater only counts iterations
        >>> trainer.extend(ProgressBar(update_interval=10))
    """

    def __init__(
        self,
        training_length: tuple[float, str] | None = None,
        update_interval: int = 100,
        bar_length: int = 50,
        out: IO[str] = sys.stdout,
    ) -> None:
        if not (isinstance(update_interval, int) and update_interval > 0):
            raise ValueError(f"update_interval must be a positive int, got {update_interval!r}")
        self._training_length = training_length
        self._update_interval = update_interval
        self._bar = util.ProgressBar(out, bar_length)

    def __call__(self, trainer: Any) -> None:
        """Record the speed; every ``update_interval`` iterations, show the status."""
        updater = trainer.updater
        iteration, epoch_detail = updater.iteration, updater.epoch_detail
        iters_per_sec, epochs_per_sec = self._bar.update_speed(iteration, epoch_detail)
        if iteration % self._update_interval == 0:
            self._show(trainer, iters_per_sec, epochs_per_sec)

    def _show(self, trainer: Any, iters_per_sec: float, epochs_per_sec: float) -> None:
        length, unit = self._length(trainer)
        updater = trainer.updater
        done = updater.iteration if unit == "iteration" else updater.epoch_detail
        speed = iters_per_sec if unit == "iteration" else epochs_per_sec
        eta = f"ETA {util.format_duration((length - done) / speed)}" if speed > 0 else "ETA -"
        epoch_fraction = updater.epoch_detail - updater.epoch
        epoch = f"epoch {updater.epoch} ({epoch_fraction * 100:.2f}%)"
        if unit == "epoch":
            epoch += f" / {length} epochs"
        fields = [epoch, f"iter {updater.iteration}", f"{iters_per_sec:.4g} iters/sec", eta]
        if unit == "iteration":
            fields[1] += f" / {length}"
        self._bar.write(min(done / length, 1.0), fields)

    def _length(self, trainer: Any) -> tuple[float, str]:
        if self._training_length is None:
            get_length = getattr(trainer.stop_trigger, "get_training_length", None)
            if get_length is None:
                raise TypeError(
                    "ProgressBar needs training_length=(length, unit): the stop trigger "
                    f"{trainer.stop_trigger!r} does not tell the length of training"
                )
            self._training_length = get_length()
        return self._training_length

    def finalize(self) -> None:
        """Leave the last status visible on a terminal."""
        self._bar.close()
