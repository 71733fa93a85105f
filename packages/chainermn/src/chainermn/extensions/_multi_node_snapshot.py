"""``multi_node_snapshot``: one snapshot per replica set, resumed consistently everywhere."""

from __future__ import annotations

import os
from collections.abc import Iterable

from chainer import serializers
from chainer.training import extension
from chainer.training.extensions import _snapshot
from chainermn.extensions import _agreement


def _parse_replica_sets(replica_sets: Iterable, size: int) -> list[set[int]]:
    """The replica sets as sets of ranks; the ranks left out form one more set."""
    sets: list[set[int]] = []
    seen: set[int] = set()
    for entry in replica_sets:
        ranks = {entry} if isinstance(entry, int) else set(entry)
        for rank in ranks:
            if isinstance(rank, bool) or not isinstance(rank, int) or not 0 <= rank < size:
                raise ValueError(
                    f"replica_sets: {rank!r} is not a rank of the communicator (0 to {size - 1})"
                )
        if ranks & seen:
            raise ValueError(f"replica_sets: ranks {sorted(ranks & seen)} are in two sets")
        if ranks:
            sets.append(ranks)
        seen |= ranks
    rest = set(range(size)) - seen
    if rest:
        sets.append(rest)
    return sets


def _with_rank_suffix(filename, rank: int):
    if callable(filename):
        return lambda trainer: f"{filename(trainer)}.{rank}"
    return f"{filename}.{rank}"


class _MultiNodeSnapshot(extension.Extension):
    """See :func:`multi_node_snapshot`."""

    def __init__(self, comm, snapshot, replica_sets) -> None:
        self.comm = comm
        self.snapshot = snapshot
        self.replica_sets = _parse_replica_sets(replica_sets, comm.size)
        my_set = next(s for s in self.replica_sets if comm.rank in s)
        self.master = min(my_set)
        self.is_master = comm.rank == self.master
        if self.is_master:
            snapshot.filename = _with_rank_suffix(snapshot.filename, comm.rank)
        self._suffix = f".{self.master}"
        # Ranked by rank, so the master is rank 0 of its replica set's communicator.
        self._replica_comm = comm.split(self.master, comm.rank)
        self.trigger = snapshot.trigger
        self.priority = snapshot.priority

    def initialize(self, trainer) -> None:
        """Set up the snapshot; with ``autoload``, resume every process from one set."""
        autoload = getattr(self.snapshot, "autoload", False)
        if self.is_master:
            self.snapshot.autoload = False  # the masters choose together, below
            try:
                self.snapshot.initialize(trainer)
            finally:
                self.snapshot.autoload = autoload
        if autoload:
            self._load_consistently(trainer)

    def _load_consistently(self, trainer) -> None:
        outdir = os.fspath(trainer.out)
        bases = None
        if self.is_master:
            names = [n for _, n in _snapshot._find_snapshot_files(self.snapshot.filename, outdir)]
            bases = [n[: -len(self._suffix)] for n in names if n.endswith(self._suffix)]
        chosen = _agreement.choose_common(
            self.comm,
            bases,
            lambda base: _agreement.check_npz(os.path.join(outdir, base + self._suffix)),
            "multi_node_snapshot",
        )
        if chosen is None:
            return
        target = getattr(self.snapshot, "_target", None) or trainer
        state = None
        if self.is_master:
            serializers.load_npz(os.path.join(outdir, chosen + self._suffix), target)
            state = {}
            serializers.DictionarySerializer(state).save(target)
        state = self._replica_comm.bcast_obj(state, root=0)
        if not self.is_master:
            serializers.NpzDeserializer(state).load(target)

    def __call__(self, trainer) -> None:
        if self.is_master:
            self.snapshot(trainer)

    def on_error(self, trainer, exc, tb) -> None:
        if self.is_master:
            self.snapshot.on_error(trainer, exc, tb)

    def finalize(self) -> None:
        if self.is_master:
            self.snapshot.finalize()


def multi_node_snapshot(comm, snapshot, replica_sets) -> _MultiNodeSnapshot:
    """Wrap a snapshot extension so that one process per replica set saves it.

    Processes in one replica set hold the same state (e.g. the data-parallel workers); the
    lowest rank of each set (its master) saves the snapshot, with ``.<rank>`` appended to the
    file name. With ``autoload`` the masters agree on the newest snapshot every one of them
    has complete (a missing or truncated file makes all of them fall back, with a warning),
    load it, and send it to the other processes of their set.

    Args:
        comm: A ChainerMN communicator (every process creates the extension together).
        snapshot: A snapshot extension from :func:`chainer.training.extensions.snapshot`.
        replica_sets: A list of replica sets, each a rank or an iterable of ranks; the ranks
            not named form one more set (``[]``: one set of all processes).

    Example:
        Every process of an MPI job runs it, e.g. under ``mpiexec -n 2``; the doctests run in one
        process, so they skip it.

        >>> snapshot = chainermn.extensions.multi_node_snapshot(
        ...     comm, extensions.snapshot(autoload=True), [0])  # doctest: +SKIP
        >>> trainer.extend(snapshot, trigger=(1, "epoch"))  # doctest: +SKIP
    """
    return _MultiNodeSnapshot(comm, snapshot, replica_sets)
