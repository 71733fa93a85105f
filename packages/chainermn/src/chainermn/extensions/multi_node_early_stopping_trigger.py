"""``MultiNodeEarlyStoppingTrigger``: early stopping on a value averaged over ranks."""

from __future__ import annotations

from chainer.training import util
from chainer.training.triggers import EarlyStoppingTrigger
from chainermn.extensions._ranks_mean import to_host_float


class MultiNodeEarlyStoppingTrigger:
    """:class:`~chainer.training.triggers.EarlyStoppingTrigger` on the mean over ranks.

    Every rank accumulates its own ``monitor`` values; at each ``check_trigger`` the local
    means are averaged over all ranks, stored as ``observation[monitor + suffix]``, and the
    early-stopping decision is taken on that average, so every rank stops at the same
    iteration. Use it as the trainer's stop trigger on every rank.

    The other arguments are those of ``EarlyStoppingTrigger``.
    """

    def __init__(
        self,
        comm,
        *,
        check_trigger=(1, "epoch"),
        monitor: str = "main/loss",
        patience=None,
        mode: str = "auto",
        verbose: bool = False,
        max_trigger=(100, "epoch"),
        suffix: str = "_aggregated",
        **kwargs,
    ) -> None:
        self.comm = comm
        self.monitor = monitor
        self.aggregated_key = monitor + suffix
        self._check_trigger = util.get_trigger(check_trigger)
        if mode == "auto":  # decide on the original key, whatever the suffix says
            mode = "max" if "accuracy" in monitor else "min"
        self.actual_trigger = EarlyStoppingTrigger(
            check_trigger=check_trigger,
            monitor=self.aggregated_key,
            patience=patience,
            mode=mode,
            verbose=verbose,
            max_trigger=max_trigger,
            **kwargs,
        )
        self._sum = 0.0
        self._count = 0

    def __call__(self, trainer) -> bool:
        """Return whether to stop (every rank returns the same)."""
        observation = trainer.observation
        if self.monitor in observation:
            self._sum += float(to_host_float(observation[self.monitor]))
            self._count += 1
        if self._check_trigger(trainer):
            local = self._sum / self._count if self._count else None
            self._sum, self._count = 0.0, 0
            means = [v for v in self.comm.mpi_comm.allgather(local) if v is not None]
            if means:
                observation[self.aggregated_key] = sum(means) / len(means)
        return self.actual_trigger(trainer)

    def get_training_length(self):
        """The length given by ``max_trigger`` (an upper bound)."""
        return self.actual_trigger.get_training_length()
