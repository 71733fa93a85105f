"""What the profiling hooks share: a stack of nested measurements and the report table.

Functions run inside functions (a backward pass applies functions of its own), so a profiler
keeps one open measurement per running function. Each finished call is recorded with its
nesting depth; totals count only the outermost calls so that nested work is not counted twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from chainer.function_hook import FunctionHook


def require_cuda(hook_name: str) -> None:
    """Raise :class:`RuntimeError`, naming the hook, unless CUDA can be used."""
    from chainer.backends import cuda

    try:
        cuda.check_cuda_available()
    except RuntimeError as error:
        raise RuntimeError(f"{hook_name} needs CUDA. {error}") from None


class StackedProfileHook(FunctionHook):
    """A function hook that measures each forward and backward call of a function.

    Subclasses define :meth:`_start` (take a reading before the call) and :meth:`_finish`
    (turn that reading into the measured values of the call), and :meth:`_record`.
    """

    def __init__(self) -> None:
        self.call_history: list[tuple] = []
        self._running_stack: list[Any] = []

    def _start(self, in_data: tuple) -> Any:
        raise NotImplementedError

    def _finish(self, started: Any) -> tuple:
        raise NotImplementedError

    def _record(self, label: str, measured: tuple, depth: int) -> None:
        raise NotImplementedError

    def _push(self, in_data: tuple) -> None:
        self._running_stack.append(self._start(in_data))

    def _pop(self, function) -> None:
        if not self._running_stack:
            raise RuntimeError(
                f"{self.name}: {function.label} finished without having started; "
                "a postprocess call needs a matching preprocess call"
            )
        measured = self._finish(self._running_stack.pop())
        self._record(function._impl_name, measured, len(self._running_stack))

    def forward_preprocess(self, function, in_data) -> None:
        self._push(in_data)

    def forward_postprocess(self, function, in_data) -> None:
        self._pop(function)

    def backward_preprocess(self, function, in_data, out_grad) -> None:
        self._push(in_data)

    def backward_postprocess(self, function, in_data, out_grad) -> None:
        self._pop(function)


def choose_unit(value: float, unit_sizes: Mapping[str, float]) -> str:
    """The largest unit not bigger than ``value`` (the smallest unit when all are).

    Args:
        value: A non-negative quantity in base units (seconds, bytes).
        unit_sizes: The size of each unit in base units.
    """
    fitting = [(size, unit) for unit, size in unit_sizes.items() if size <= abs(value)]
    if fitting:
        return max(fitting)[1]
    return min((size, unit) for unit, size in unit_sizes.items())[1]


def resolve_unit(unit: str, values: Sequence[float], unit_sizes: Mapping[str, float]) -> str:
    """The unit to write ``values`` in: ``'auto'`` becomes one unit chosen for the largest
    value; ``'auto_foreach'`` (a unit per value) and fixed units stay.

    Raises:
        ValueError: ``unit`` is none of these.
    """
    if unit not in ("auto", "auto_foreach") and unit not in unit_sizes:
        raise ValueError(
            f"unit must be 'auto', 'auto_foreach' or one of {list(unit_sizes)}, got {unit!r}"
        )
    if unit == "auto":
        return choose_unit(max(values, default=0.0, key=abs), unit_sizes)
    return unit


def format_quantity(value: float, unit: str, unit_sizes: Mapping[str, float]) -> str:
    """``value`` (in base units) written in ``unit`` (or ``'auto_foreach'``: the largest unit
    in which it is at least 1), e.g. ``'1.50ms'``."""
    if unit == "auto_foreach":
        unit = choose_unit(value, unit_sizes)
    return f"{value / unit_sizes[unit]:3.2f}{unit}"


def write_table(file: TextIO, rows: Sequence[Sequence[str]]) -> None:
    """Write rows (the first is the header) as right-aligned columns two spaces apart."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    for row in rows:
        file.write("  ".join(cell.rjust(width) for cell, width in zip(row, widths)) + "\n")
    if hasattr(file, "flush"):
        file.flush()
