"""Printing the entries of a LogReport as a table."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import IO, Any

from chainer.training import extension
from chainer.training.extensions import log_report as log_report_module
from chainer.training.extensions import util

_ERASE_TO_END_OF_SCREEN = "\033[J"


class PrintReport(extension.Extension):
    """Trainer extension to print the accumulated results.

    It prints a header with the ``entries`` at its first call, then one row per new entry of
    the :class:`LogReport` (a missing value leaves its cell blank). On a terminal each row
    first erases what follows the cursor, so it replaces a :class:`ProgressBar` status in
    place; other streams receive plain text only.

    Args:
        entries: Keys of the log entries to print, as columns.
        log_report: The :class:`LogReport`, or the name under which it is registered to the
            trainer.
        out: The stream.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> from chainer.training.extensions import LogReport
        >>> trainer = get_trainer_with_mock_updater()  # its updater only counts iterations
        >>> trainer.extend(LogReport())
        >>> trainer.extend(PrintReport(['epoch', 'main/loss', 'validation/main/loss']))
    """

    def __init__(
        self,
        entries: Sequence[str],
        log_report: str | log_report_module.LogReport = "LogReport",
        out: IO[str] = sys.stdout,
    ) -> None:
        self._entries = list(entries)
        self._log_report = log_report
        self._out = out
        self._log_len = 0  # entries of the log already printed
        self._widths = [max(10, len(entry)) for entry in self._entries]
        self._header: str | None = (
            "  ".join(entry.ljust(width) for entry, width in zip(self._entries, self._widths))
            + "\n"
        )

    def __call__(self, trainer: Any) -> None:
        """Print the header (first call) and every log entry not printed yet."""
        out = self._out
        terminal = util.isatty(out)
        if self._header is not None:
            out.write(self._header)
            self._header = None
        log_report = self._log_report
        if isinstance(log_report, str):
            log_report = trainer.get_extension(log_report)
        elif isinstance(log_report, log_report_module.LogReport):
            log_report(trainer)  # a LogReport given directly is driven by this extension
        else:
            raise TypeError(
                "log_report must be a LogReport or the name of one registered to the trainer, "
                f"got {type(log_report).__name__}"
            )
        log = log_report.log
        while len(log) > self._log_len:
            if terminal:
                out.write(_ERASE_TO_END_OF_SCREEN)
            out.write(self._row(log[self._log_len]))
            self._log_len += 1
        util.flush(out)

    def _row(self, observation: dict) -> str:
        cells = []
        for entry, width in zip(self._entries, self._widths):
            if entry in observation:
                cells.append(f"{observation[entry]:<{width}g}")
            else:
                cells.append(" " * width)
        return "  ".join(cells).rstrip() + "\n"

    def serialize(self, serializer: Any) -> None:
        """Save or load the LogReport given directly (a registered one saves itself)."""
        if isinstance(self._log_report, log_report_module.LogReport):
            self._log_report.serialize(serializer["_log_report"])
