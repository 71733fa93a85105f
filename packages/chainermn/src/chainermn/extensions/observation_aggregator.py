"""``ObservationAggregator``: an observed value, aggregated over ranks, into the observation."""

from __future__ import annotations

import numpy

from chainer.training import extension, util
from chainermn.extensions._ranks_mean import like, to_host_float


class ObservationAggregator(extension.Extension):
    """Collect ``trainer.observation[original_key]`` and publish its aggregate over ranks.

    At every iteration the local value is accumulated; each time ``comm_trigger`` fires, the
    local mean since the last communication is gathered from every rank, ``aggregator`` (the
    mean by default) combines the list, and the result is stored as
    ``observation[aggregated_key]`` (a ``Variable`` when the value was one, on its device).

    Args:
        comm: ChainerMN communicator.
        original_key: Key of the value each rank reports.
        aggregated_key: Key of the aggregate (``original_key`` itself by default).
        comm_trigger: When to communicate (keyword only).
        aggregator: Callable on the list of per-rank means (keyword only).
    """

    trigger = 1, "iteration"
    priority = extension.PRIORITY_EDITOR
    name = None

    def __init__(
        self,
        comm,
        original_key: str,
        aggregated_key: str | None = None,
        *,
        comm_trigger=(1, "iteration"),
        aggregator=None,
    ) -> None:
        self.comm = comm
        self.original_key = original_key
        self.aggregated_key = original_key if aggregated_key is None else aggregated_key
        self.comm_trigger = util.get_trigger(comm_trigger)
        self.aggregator = aggregator or _mean
        self._sum = None
        self._count = 0
        self._reference = None

    def __call__(self, trainer) -> None:
        observation = trainer.observation
        value = observation.get(self.original_key)
        if value is not None:
            host = to_host_float(value)
            self._sum = host if self._sum is None else self._sum + host
            self._count += 1
            self._reference = value
        if self.comm_trigger(trainer):
            summary = self.compute_summary(trainer)
            if summary is not None:
                observation[self.aggregated_key] = like(summary, self._reference)

    def compute_summary(self, trainer):
        """Aggregate the local means of every rank (``None`` when no rank observed any)."""
        local = None if self._count == 0 else self._sum / self._count
        self._sum, self._count = None, 0
        everyone = [v for v in self.comm.mpi_comm.allgather(local) if v is not None]
        return self.aggregator(everyone) if everyone else None


def _mean(values: list):
    return numpy.mean(values, axis=0)
