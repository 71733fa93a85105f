"""Timing helpers shared by the benchmarks: interleaved best-of-N timings, ratio tables."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def measure_side_by_side(
    fns: dict[str, Callable[[], object]], *, number: int, repeat: int = 15
) -> dict[str, float]:
    """Best seconds per call of each function, timed in interleaved rounds.

    Interleaving makes every contender see the same machine load; the minimum over rounds is
    the least disturbed measurement (other processes only ever add time).
    """
    for fn in fns.values():
        fn()  # warm up caches and lazy imports
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(repeat):
        for name, fn in fns.items():
            start = time.perf_counter()
            for _ in range(number):
                fn()
            best[name] = min(best[name], (time.perf_counter() - start) / number)
    return best


def measure_rounds(
    fns: dict[str, Callable[[], object]],
    *,
    number: int,
    rounds: int = 15,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, list[float]]:
    """Seconds per call of each function in every interleaved round, read from ``clock``.

    Adjacent contenders see nearly the same machine: where it changes between rounds (a
    busy or bimodal machine), compare medians of per-round ratios (:func:`median_ratio`)
    rather than separate minimums.
    """
    for fn in fns.values():
        for _ in range(number):
            fn()  # warm up caches, lazy imports and recorded schedules
    samples: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            start = clock()
            for _ in range(number):
                fn()
            samples[name].append((clock() - start) / number)
    return samples


def measure_thread_medians(
    fns: dict[str, Callable[[], object]], *, number: int, rounds: int = 15
) -> dict[str, list[float]]:
    """:func:`measure_rounds` by the thread's CPU time, which leaves out the time spent
    waiting for a core on a busy machine; take medians (over rounds, or of per-round ratios)
    rather than minimums."""
    return measure_rounds(fns, number=number, rounds=rounds, clock=time.thread_time)


def median_ratio(samples: dict[str, list[float]], name: str, baseline: str) -> float:
    """The median over rounds of ``name``'s time over ``baseline``'s in the same round."""
    return statistics.median(a / b for a, b in zip(samples[name], samples[baseline]))


def report(title: str, results: dict[str, float], baseline: str) -> str:
    """A table of per-call times and their ratio to ``baseline``."""
    base = results[baseline]
    width = max(len(name) for name in results)
    lines = [title, "-" * len(title)]
    for name, seconds in results.items():
        lines.append(
            f"{name:<{width}}  {seconds * 1e6:10.1f} us   {seconds / base:6.2f}x {baseline}"
        )
    return "\n".join(lines)
