"""``TimerHook``: the elapsed time of the forward pass of every link."""

from __future__ import annotations

import sys
import typing as tp
from time import perf_counter

from chainer import backend, link_hook
from chainer.function_hooks._profile import format_quantity, resolve_unit, write_table


class TimerHook(link_hook.LinkHook):
    """Link hook that measures the elapsed time of :meth:`Link.forward <chainer.Link>`.

    CPU links are timed with :func:`time.perf_counter`; links on a CUDA device with CUDA
    events (recorded on the current stream and waited for, so the time covers the kernels).

    Links call links, so the reported times overlap: a chain's time includes its children's.
    :meth:`total_time` counts only the outermost calls.

    Attributes:
        call_history (list): ``(link class name, elapsed seconds)`` of every finished call.
        table (dict): Multiplier from seconds to each unit :meth:`print_report` accepts.

    Example:
        >>> from chainer.link_hooks import TimerHook
        >>> model = chainer.Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))
        >>> with TimerHook() as hook:
        ...     y = model(numpy.ones((1, 3), numpy.float32))
        >>> [name for name, _ in hook.call_history]
        ['Linear', 'Linear', 'Sequential']
        >>> hook.print_report()  # doctest: +SKIP
              LinkName  ElapsedTime  Occurrence
                Linear      41.42ms        2100
                   MLP      42.09ms         700
    """

    name = "TimerHook"
    table = {"sec": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}

    def __init__(self) -> None:
        self.call_history: list[tuple[str, float]] = []
        self._running_stack: list[tp.Any] = []
        self._total_time = 0.0

    def forward_preprocess(self, args: tp.Any) -> None:
        if isinstance(args.link.device, backend.GpuDevice):
            from chainer.backends import cuda

            start = cuda.Event()
            start.record()
            self._running_stack.append(start)
        else:
            self._running_stack.append(perf_counter())

    def forward_postprocess(self, args: tp.Any) -> None:
        if not self._running_stack:
            raise RuntimeError(
                f"TimerHook: {type(args.link).__name__}.forward finished without having "
                "started; a postprocess call needs a matching preprocess call"
            )
        start = self._running_stack.pop()
        if isinstance(start, float):
            elapsed = perf_counter() - start
        else:
            from chainer.backends import cuda

            stop = cuda.Event()
            stop.record()
            stop.synchronize()
            elapsed = cuda.cupy.cuda.get_elapsed_time(start, stop) / 1000  # ms -> s
        self.call_history.append((type(args.link).__name__, elapsed))
        if not self._running_stack:
            self._total_time += elapsed

    def total_time(self) -> float:
        """Total elapsed seconds of the outermost calls (nested calls are inside them)."""
        return self._total_time

    def summary(self) -> dict:
        """Per link class name, in order of first call:
        ``{'elapsed_time': seconds, 'occurrence': calls}``."""
        result: dict = {}
        for name, elapsed in self.call_history:
            entry = result.setdefault(name, {"elapsed_time": 0.0, "occurrence": 0})
            entry["elapsed_time"] += elapsed
            entry["occurrence"] += 1
        return result

    def print_report(self, unit: str = "auto", file: tp.TextIO = sys.stdout) -> None:
        """Print a table of elapsed time and number of calls per link class.

        Args:
            unit: ``'sec'``, ``'ms'``, ``'us'`` or ``'ns'``; ``'auto'`` writes every row in
                the largest unit in which the longest time is at least 1, ``'auto_foreach'``
                picks that unit row by row.
            file: Where to write the table.

        Raises:
            ValueError: An unknown ``unit``.
        """
        unit_sizes = {name: 1 / multiplier for name, multiplier in self.table.items()}
        summary = self.summary()
        unit = resolve_unit(unit, [e["elapsed_time"] for e in summary.values()], unit_sizes)
        rows = [("LinkName", "ElapsedTime", "Occurrence")]
        for name, entry in summary.items():
            elapsed = format_quantity(entry["elapsed_time"], unit, unit_sizes)
            rows.append((name, elapsed, str(entry["occurrence"])))
        write_table(file, rows)
