"""Progress display shared by the training progress bar and the evaluator.

A status is one line: a bar, a percentage and some ``|``-separated fields. On a terminal the
line is redrawn in place (the cursor is left at its start, so a report printed in between
simply overwrites it); anywhere else (a file, a pipe, a CI log) each update is a new plain line
without control characters.
"""

from __future__ import annotations

import collections
import datetime
import shutil
import sys
import time
from typing import IO, Any

_ERASE_TO_END_OF_LINE = "\033[K"
_MIN_BAR = 10


def isatty(out: Any) -> bool:
    """Whether ``out`` is a terminal (a stream without ``isatty`` is not)."""
    check = getattr(out, "isatty", None)
    try:
        return bool(check and check())
    except ValueError:  # a closed stream
        return False


def flush(out: Any) -> None:
    """Flush ``out`` if it can be flushed (a stream may only implement ``write``)."""
    flush_stream = getattr(out, "flush", None)
    if flush_stream is not None:
        flush_stream()


def format_bar(fraction: float, length: int) -> str:
    """Return ``'[####......]'`` with ``length`` cells, ``fraction`` of them filled."""
    filled = min(max(int(fraction * length), 0), length)
    return "[" + "#" * filled + "." * (length - filled) + "]"


def format_duration(seconds: float) -> str:
    """Return ``seconds`` as ``H:MM:SS``."""
    return str(datetime.timedelta(seconds=max(int(seconds), 0)))


class ProgressBar:
    """Writes a progress status, in place on a terminal and as plain lines elsewhere.

    Args:
        out: The stream (``sys.stdout`` when ``None``).
        bar_length: Number of cells of the bar (shrunk to fit a narrow terminal).
        speed_window: Number of recent :meth:`update_speed` points the speed is measured over.
    """

    def __init__(self, out: IO[str] | None = None, bar_length: int = 50, speed_window: int = 100):
        self._out = sys.stdout if out is None else out
        self._terminal = isatty(self._out)
        self._bar_length = bar_length
        self._recent: collections.deque = collections.deque(maxlen=speed_window)
        self._last_line: str | None = None

    @property
    def terminal(self) -> bool:
        """Whether the stream is a terminal (statuses are redrawn in place)."""
        return self._terminal

    def update_speed(self, iteration: float, epoch_detail: float) -> tuple[float, float]:
        """Record the position now; return iterations and epochs per second over the window.

        Both speeds are 0 until two points have been recorded.
        """
        now = time.perf_counter()
        self._recent.append((iteration, epoch_detail, now))
        first_iteration, first_epoch, first_time = self._recent[0]
        elapsed = now - first_time
        if elapsed <= 0:
            return 0.0, 0.0
        return (iteration - first_iteration) / elapsed, (epoch_detail - first_epoch) / elapsed

    def write(self, fraction: float, fields: list[str]) -> None:
        """Show the bar for ``fraction`` followed by its percentage and ``fields``."""
        tail = f" {fraction * 100:6.2f}% | " + " | ".join(fields)
        bar_length = self._bar_length
        if self._terminal:
            width = shutil.get_terminal_size((80, 24)).columns - 1
            bar_length = max(min(bar_length, width - len(tail) - 2), _MIN_BAR)
        line = format_bar(fraction, bar_length) + tail
        if self._terminal:
            line = line[:width]
            self._out.write(line + _ERASE_TO_END_OF_LINE + "\r")
        else:
            self._out.write(line + "\n")
        self._last_line = line
        flush(self._out)

    def close(self) -> None:
        """On a terminal, move past the last status so that it stays visible."""
        if self._terminal and self._last_line is not None:
            self._out.write(self._last_line + _ERASE_TO_END_OF_LINE + "\n")
            flush(self._out)
        self._last_line = None


class IteratorProgressBar:
    """Progress of one pass over a non-repeating iterator (used by the evaluator).

    On a terminal it is redrawn after every batch; in a log a line is written at every tenth
    of the pass, so a long evaluation stays readable.

    Args:
        iterator: The iterator; its ``epoch_detail`` gives the fraction done.
        out: The stream (``sys.stdout`` when ``None``).
        title: Name shown in the status.
    """

    def __init__(self, iterator: Any, out: IO[str] | None = None, title: str = "validation"):
        self._iterator = iterator
        self._bar = ProgressBar(out, bar_length=30)
        self._title = title
        self._batches = 0
        self._tenths_written = -1

    def update(self) -> None:
        """Count a batch and show the progress."""
        self._batches += 1
        fraction = min(float(self._iterator.epoch_detail), 1.0)
        speed, _ = self._bar.update_speed(self._batches, fraction)
        tenths = int(fraction * 10)
        if not self._bar.terminal and tenths == self._tenths_written:
            return
        self._tenths_written = tenths
        self._bar.write(
            fraction, [self._title, f"{self._batches} batches", f"{speed:.4g} iters/sec"]
        )

    def close(self) -> None:
        """Finish the display."""
        self._bar.close()
