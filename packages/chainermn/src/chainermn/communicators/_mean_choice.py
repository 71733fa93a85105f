"""How a two-rank gradient average reduces: MPI's sum then a division, or NumPy's mean.

Over two ranks each element of the sum is one addition, so a user-defined MPI op that adds
with NumPy and halves the result in the same call gives the bits of ``MPI.SUM`` followed by
the division (halving is exact), and no pass over the buffer is left to do afterwards. Which
of the two is faster depends on the MPI library and on how quickly the two processes hand a
message over, which can change from one launch to the next. On this project's 2-vCPU machine
with the MPICH wheel, whose built-in sum is a scalar loop, NumPy's op took 10-30 % less time
for 1-4 MiB when a 1 MiB ``Allreduce`` took 0.11 ms, and 20-40 % more when it took 0.28 ms
(``benchmarks/README.md``, ChainerMN "Fourth round").

So each plan of :mod:`._mean_plan` learns it from its own averages: the communicator times
each average, every rank sends the duration of its previous one in the layout header that
precedes the next (:func:`._model_params.agree_on_layout`), and each rank records the
slowest of them. Every rank thus holds the same durations and makes the same choice. With
more than two ranks the order of the additions is the MPI library's, and only ``MPI.SUM``
is used.
"""

from __future__ import annotations

from collections import deque

#: Durations kept per reduction; the shortest of them stands for it.
WINDOW = 5
#: Averages run with each reduction, alternately, before the faster one is chosen.
WARM_UP = 3
#: Every this many averages, the slower reduction runs once more (the machine may change).
RETRY_EVERY = 100


class MeanChoice:
    """The reduction of each average of one plan: MPI's sum (False) or NumPy's mean (True)."""

    def __init__(self) -> None:
        self.durations: tuple[deque, deque] = (deque(maxlen=WINDOW), deque(maxlen=WINDOW))
        self.calls = 0
        self.pending: int | None = None

    def next(self) -> bool:
        """Whether this average reduces with NumPy's mean: each reduction in turn until both
        have :data:`WARM_UP` durations, then the faster one, and the other one every
        :data:`RETRY_EVERY` calls."""
        self.calls += 1
        mpi, numpy_ = self.durations
        if len(mpi) < WARM_UP or len(numpy_) < WARM_UP:
            use_numpy = len(numpy_) < len(mpi)
        else:
            use_numpy = (min(numpy_) < min(mpi)) != (self.calls % RETRY_EVERY == 0)
        self.pending = int(use_numpy)
        return use_numpy

    def record(self, seconds: float) -> None:
        """The slowest rank's duration of the average :meth:`next` answered for last."""
        if self.pending is not None:
            self.durations[self.pending].append(seconds)
            self.pending = None
