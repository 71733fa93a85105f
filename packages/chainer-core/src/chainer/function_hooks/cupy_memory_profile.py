"""``CupyMemoryProfileHook``: GPU memory that functions take from CuPy's memory pool."""

from __future__ import annotations

import functools
import sys
from typing import Any, TextIO

from chainer.function_hooks._profile import (
    StackedProfileHook,
    format_quantity,
    require_cuda,
    resolve_unit,
    write_table,
)

_UNITS = ("B", "KB", "MB", "GB", "TB", "PB", "EB", "ZB")
_UNIT_SIZES = {unit: 1024**power for power, unit in enumerate(_UNITS)}


@functools.cache
def _cumulative_hook_class() -> type:
    """A CuPy memory hook class that counts the bytes handed out (defined once CuPy works)."""
    from chainer.backends import cuda

    memory_hook: Any = cuda.cupy.cuda.MemoryHook  # CuPy ships no type hints

    class CupyMemoryCumulativeHook(memory_hook):
        # CuPy calls malloc_* for every request served by the pool, and alloc_* only when the
        # pool has to get fresh memory from the device.
        name = "CupyMemoryCumulativeHook"

        def __init__(self) -> None:
            self.used_bytes = 0
            self.acquired_bytes = 0

        def malloc_preprocess(self, **kwargs: Any) -> None:
            self.used_bytes += kwargs["mem_size"]

        def alloc_preprocess(self, **kwargs: Any) -> None:
            self.acquired_bytes += kwargs["mem_size"]

    return CupyMemoryCumulativeHook


class CupyMemoryProfileHook(StackedProfileHook):
    """Function hook that measures the GPU memory each function takes from CuPy's pool.

    For every forward and backward call it records the bytes *used* (requested from the
    memory pool) and *acquired* (newly allocated on the device because the pool had no free
    block). Memory is counted while the hook is registered.

    Attributes:
        call_history: ``(function class name, used bytes, acquired bytes, depth)`` of every
            finished call; ``depth`` is 0 for an outermost call.

    Raises:
        RuntimeError: CUDA is not available (CuPy is missing or sees no GPU).

    Example:
        Needs a GPU and CuPy, so it is not run here.

        >>> hook = chainer.function_hooks.CupyMemoryProfileHook()  # doctest: +SKIP
        >>> with hook:  # doctest: +SKIP
        ...     y = model(x_on_gpu)
        >>> hook.print_report()  # doctest: +SKIP
    """

    name = "CupyMemoryProfileHook"

    def __init__(self) -> None:
        require_cuda(self.name)
        super().__init__()
        self._memory_hook = _cumulative_hook_class()()
        self._total_used_bytes = 0
        self._total_acquired_bytes = 0

    def added(self, function=None) -> None:
        self._memory_hook.__enter__()

    def deleted(self, function=None) -> None:
        self._memory_hook.__exit__()

    def _start(self, in_data: tuple) -> Any:
        return self._memory_hook.used_bytes, self._memory_hook.acquired_bytes

    def _finish(self, started: Any) -> tuple:
        used_before, acquired_before = started
        return (
            self._memory_hook.used_bytes - used_before,
            self._memory_hook.acquired_bytes - acquired_before,
        )

    def _record(self, label: str, measured: tuple, depth: int) -> None:
        used, acquired = measured
        self.call_history.append((label, used, acquired, depth))
        if depth == 0:
            self._total_used_bytes += used
            self._total_acquired_bytes += acquired

    def total_used_bytes(self) -> int:
        """Bytes requested from the pool by the outermost calls (nested calls are inside)."""
        return self._total_used_bytes

    def total_acquired_bytes(self) -> int:
        """Bytes newly allocated on the device by the outermost calls."""
        return self._total_acquired_bytes

    def summary(self) -> dict:
        """Per function class name, in order of first call:
        ``{'used_bytes': n, 'acquired_bytes': n, 'occurrence': n}``."""
        result: dict = {}
        for label, used, acquired, _depth in self.call_history:
            entry = result.setdefault(
                label, {"used_bytes": 0, "acquired_bytes": 0, "occurrence": 0}
            )
            entry["used_bytes"] += used
            entry["acquired_bytes"] += acquired
            entry["occurrence"] += 1
        return result

    def print_report(self, unit: str = "auto", file: TextIO = sys.stdout) -> None:
        """Print a table of used and acquired bytes and number of calls per function.

        Args:
            unit: One of ``'B'``, ``'KB'``, ... ``'ZB'`` (powers of 1024); ``'auto'`` for the
                largest unit in which the largest value is at least 1; ``'auto_foreach'`` to
                pick it per value.
            file: Where to write the table.
        """
        summary = self.summary()
        sizes = [e[key] for e in summary.values() for key in ("used_bytes", "acquired_bytes")]
        unit = resolve_unit(unit, sizes, _UNIT_SIZES)
        rows = [("FunctionName", "UsedBytes", "AcquiredBytes", "Occurrence")]
        for label, entry in summary.items():
            rows.append(
                (
                    label,
                    format_quantity(entry["used_bytes"], unit, _UNIT_SIZES),
                    format_quantity(entry["acquired_bytes"], unit, _UNIT_SIZES),
                    str(entry["occurrence"]),
                )
            )
        write_table(file, rows)
