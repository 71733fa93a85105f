"""The guard around one fuzzing case, shared by the fuzz tests of every distribution.

A case passes when the code under test returns or raises one of the documented exception
types, within a time limit, with its peak of traced allocations under a bound, and without
writing anything into the sandbox folder it runs in (the working directory during the case).
Hypothesis drives the cases; this module does not import it.

The number of cases per harness is ``CI_EXAMPLES`` unless the environment variable
``CHAINER_FUZZ_EXAMPLES`` gives another (the ``fuzz`` nox session asks for the long form).
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
import tracemalloc
from collections.abc import Callable, Iterable, Iterator
from typing import Any

#: Cases per harness in CI; ``CHAINER_FUZZ_EXAMPLES`` overrides it.
CI_EXAMPLES = 1000
EXAMPLES_ENV = "CHAINER_FUZZ_EXAMPLES"


def examples() -> int:
    """The number of cases each harness runs (``$CHAINER_FUZZ_EXAMPLES`` or ``CI_EXAMPLES``)."""
    text = os.environ.get(EXAMPLES_ENV, str(CI_EXAMPLES))
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"${EXAMPLES_ENV} must be a positive integer, got {text!r}")
    return int(text)


def hypothesis_settings() -> Any:
    """Hypothesis settings of every harness: ``examples()`` cases, derandomized (the same
    cases on every run, so CI is reproducible), no deadline (``run_case`` limits time)."""
    import hypothesis

    return hypothesis.settings(
        max_examples=examples(),
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(hypothesis.HealthCheck),
    )


def mutate(data: bytes, flips: Iterable[tuple[int, int]], cut: int | None) -> bytes:
    """``data`` with each ``(position, value)`` of ``flips`` written at ``position`` modulo
    its length, then cut to ``cut`` modulo its length (unless ``cut`` is None); empty data
    stays empty. The harnesses draw ``flips`` and ``cut`` and mutate a valid file with them."""
    mutated = bytearray(data)
    if not mutated:
        return b""
    for position, value in flips:
        mutated[position % len(mutated)] = value
    if cut is not None:
        del mutated[cut % len(mutated) :]
    return bytes(mutated)


class CaseTimeout(BaseException):
    """A case ran past its time limit (a BaseException, so ``except Exception`` misses it)."""


class CaseFailure(AssertionError):
    """A case broke a rule: an undocumented exception, too much memory, a stray file."""


def _tree(folder: str) -> set[tuple[str, int]]:
    found = set()
    for directory, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(directory, name)
            with contextlib.suppress(OSError):
                found.add((os.path.relpath(path, folder), os.stat(path).st_size))
    return found


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: Any) -> None:
        raise CaseTimeout(f"the case ran longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_case(
    call: Callable[[], Any],
    allowed: tuple[type[BaseException], ...],
    sandbox: str,
    seconds: float = 10.0,
    max_bytes: int = 64 * 2**20,
) -> BaseException | None:
    """Run ``call()`` in ``sandbox`` under the rules above; return what it raised, if allowed.

    Args:
        call: The case.
        allowed: The documented exception types of the code under test.
        sandbox: A folder, made the working directory during the case; nothing may be added
            to it or changed in it (files the case needs are put there beforehand).
        seconds: The time limit of the case (wall clock; SIGALRM, main thread only).
        max_bytes: Bound on the peak of memory traced by :mod:`tracemalloc` during the case.

    Raises:
        CaseFailure: A rule was broken (the message says which).
    """
    before = _tree(sandbox)
    started_tracing = not tracemalloc.is_tracing()
    if started_tracing:
        tracemalloc.start()
    tracemalloc.reset_peak()
    caught: BaseException | None = None
    cwd = os.getcwd()
    start = time.perf_counter()
    try:
        os.chdir(sandbox)
        with _time_limit(seconds):
            call()
    except allowed as error:
        caught = error
    except CaseTimeout as error:
        raise CaseFailure(str(error)) from None
    except Exception as error:
        raise CaseFailure(
            f"undocumented exception {type(error).__module__}.{type(error).__qualname__}: "
            f"{error} (allowed: {', '.join(t.__name__ for t in allowed)})"
        ) from error
    finally:
        os.chdir(cwd)
        peak = tracemalloc.get_traced_memory()[1]
        if started_tracing:
            tracemalloc.stop()
    elapsed = time.perf_counter() - start
    if peak > max_bytes:
        raise CaseFailure(f"peak traced allocation {peak} bytes exceeds {max_bytes}")
    after = _tree(sandbox)
    if after != before:
        raise CaseFailure(
            f"the case wrote into its sandbox: added or changed {sorted(after - before)}, "
            f"removed {sorted(before - after)} ({elapsed:.2f} s)"
        )
    if caught is not None and not str(caught):
        raise CaseFailure(f"{type(caught).__name__} without a message")
    return caught
