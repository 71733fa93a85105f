"""``TimerHook``: the elapsed time of every forward and backward call of functions."""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

from chainer._backend import is_loaded_instance
from chainer.function_hooks._profile import (
    StackedProfileHook,
    format_quantity,
    resolve_unit,
    write_table,
)


def _on_gpu(in_data: tuple) -> bool:
    # Checked by class, without importing CuPy: CPU-only runs never load it.
    return any(is_loaded_instance(x, "cupy", "ndarray") for x in in_data)


class TimerHook(StackedProfileHook):
    """Function hook that measures the elapsed time of functions.

    CPU calls are timed with :func:`time.perf_counter`; calls on CuPy arrays with CUDA events
    (recorded on the current stream and waited for, so the time covers the kernels).
    A function applied inside another one (e.g. by a backward pass) is recorded on its own
    and is also part of the time of the enclosing call; :meth:`total_time` counts only the
    outermost calls.

    Attributes:
        call_history: ``(function class name, elapsed seconds)`` of every finished call, in
            order.

    Example:
        The times in the report vary from run to run.

        >>> x, w, b = (chainer.Variable(numpy.ones(3, numpy.float32)) for _ in range(3))
        >>> with chainer.function_hooks.TimerHook() as hook:
        ...     y = x * w + b
        ...     y.grad = numpy.ones_like(y.array)
        ...     y.backward()
        >>> [name for name, _ in hook.call_history]  # Mul's backward applies Mul twice
        ['Mul', 'Add', 'Add', 'Mul', 'Mul', 'Mul']
        >>> hook.print_report()  # doctest: +SKIP
              FunctionName  ElapsedTime  Occurrence
                       Mul      12.30us           1
                       ...
    """

    name = "TimerHook"
    #: Multiplier from seconds to each unit that :meth:`print_report` accepts.
    table = {"sec": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}

    def __init__(self) -> None:
        super().__init__()
        self._total_time = 0.0

    def _start(self, in_data: tuple) -> Any:
        if not _on_gpu(in_data):
            return time.perf_counter()
        from chainer.backends import cuda

        start = cuda.Event()
        start.record()
        return start

    def _finish(self, started: Any) -> tuple:
        if isinstance(started, float):
            return (time.perf_counter() - started,)
        from chainer.backends import cuda

        stop = cuda.Event()
        stop.record()
        stop.synchronize()
        return (cuda.cupy.cuda.get_elapsed_time(started, stop) / 1000,)  # ms -> s

    def _record(self, label: str, measured: tuple, depth: int) -> None:
        (elapsed,) = measured
        self.call_history.append((label, elapsed))
        if depth == 0:
            self._total_time += elapsed

    def total_time(self) -> float:
        """Total elapsed seconds of the outermost calls (nested calls are inside them)."""
        return self._total_time

    def summary(self) -> dict:
        """Per function class name, in order of first call:
        ``{'elapsed_time': s, 'occurrence': n}``."""
        result: dict = {}
        for label, elapsed in self.call_history:
            entry = result.setdefault(label, {"elapsed_time": 0.0, "occurrence": 0})
            entry["elapsed_time"] += elapsed
            entry["occurrence"] += 1
        return result

    def print_report(self, unit: str = "auto", file: TextIO = sys.stdout) -> None:
        """Print a table of elapsed time and number of calls per function.

        Args:
            unit: ``'sec'``, ``'ms'``, ``'us'``, ``'ns'``; ``'auto'`` for the largest unit in
                which the longest time is at least 1; ``'auto_foreach'`` to pick it per row.
            file: Where to write the table.
        """
        unit_sizes = {name: 1 / multiplier for name, multiplier in self.table.items()}
        summary = self.summary()
        unit = resolve_unit(unit, [e["elapsed_time"] for e in summary.values()], unit_sizes)
        rows = [("FunctionName", "ElapsedTime", "Occurrence")]
        for label, entry in summary.items():
            elapsed = format_quantity(entry["elapsed_time"], unit, unit_sizes)
            rows.append((label, elapsed, str(entry["occurrence"])))
        write_table(file, rows)
