"""``create_multi_node_checkpointer``: per-process snapshots every process resumes together."""

from __future__ import annotations

import os
import re
import time

from chainer import serializers
from chainer.training import extension
from chainer.training.extensions import snapshot_writers
from chainermn.extensions import _agreement


class _CheckpointStats:
    """How long the checkpoints took (:meth:`report` gives a one-line summary)."""

    def __init__(self) -> None:
        self.durations: list[float] = []
        self._started: float | None = None

    def start(self) -> None:
        self._started = time.perf_counter()

    def end(self) -> None:
        if self._started is not None:
            self.durations.append(time.perf_counter() - self._started)
            self._started = None

    def report(self) -> str:
        if not self.durations:
            return "no checkpoints taken"
        total = sum(self.durations)
        return (
            f"{len(self.durations)} checkpoints, {total:.3f} s in total, mean "
            f"{total / len(self.durations):.4f} s, max {max(self.durations):.4f} s"
        )


class _MultiNodeCheckpointer(extension.Extension):
    """See :func:`create_multi_node_checkpointer`."""

    def __init__(self, name: str, comm, cp_interval: int, gc_interval: int, path) -> None:
        if not isinstance(name, str) or not name or os.sep in name:
            raise ValueError(f"name must be a non-empty file name (no {os.sep!r}), got {name!r}")
        for label, value in (("cp_interval", cp_interval), ("gc_interval", gc_interval)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{label} must be an int >= 1, got {value!r}")
        self.name = name
        self.comm = comm
        self.cp_interval = cp_interval
        self.gc_interval = gc_interval
        self.path = None if path is None else os.fspath(path)
        self.files: list[str] = []
        self.stats = _CheckpointStats()
        self._saves_since_gc = 0
        self._failed = False
        self._pattern = re.compile(rf"{re.escape(name)}\.(\d+)\.(\d+)")

    # --- file names ---------------------------------------------------------------------------
    def _filename(self, iteration: int) -> str:
        return f"{self.name}.{self.comm.rank}.{int(iteration)}"

    def _filenames(self, iterations) -> list[str]:
        return [self._filename(i) for i in iterations]

    def _parse_filenames(self, filenames):
        """``(name, rank, iteration)`` of this checkpointer's files of this process."""
        for filename in filenames:
            match = self._pattern.fullmatch(filename)
            if match and int(match.group(1)) == self.comm.rank:
                yield self.name, int(match.group(1)), int(match.group(2))

    def _local_iterations(self) -> list[int]:
        try:
            names = os.listdir(self.path)
        except FileNotFoundError:
            return []
        return sorted(i for _, _, i in self._parse_filenames(names))

    def _file(self, iteration: int) -> str:
        return os.path.join(self.path, self._filename(iteration))

    # --- saving -------------------------------------------------------------------------------
    def __call__(self, trainer) -> None:
        """Checkpoint ``trainer`` (every process at the same iteration)."""
        if self.path is None:
            self.path = os.fspath(trainer.out)
        self.save(trainer, trainer.updater.iteration)

    def save(self, target, iteration: int) -> None:
        """Save ``target`` as ``<name>.<rank>.<iteration>`` (atomically: temp, fsync, rename).

        Every process must call it at the same iteration; every ``gc_interval`` saves they
        agree on the complete sets and remove all but the newest ``cp_interval``.
        """
        if self.path is None:
            self.path = os.getcwd()
        self.stats.start()
        filename = self._filename(iteration)
        snapshot_writers.SimpleWriter()(filename, self.path, target)
        if filename not in self.files:
            self.files.append(filename)
        self._saves_since_gc += 1
        if self._saves_since_gc >= self.gc_interval:
            self._collect_garbage()
        self.stats.end()

    def _collect_garbage(self) -> None:
        self._saves_since_gc = 0
        mine = self._local_iterations()
        everyone = _agreement.allgather_obj(self.comm, mine)
        common = set(mine).intersection(*map(set, everyone))
        keep = sorted(common)[-self.cp_interval :]
        if not keep:
            return
        for iteration in mine:
            # Older than every kept set, or an incomplete set older than the newest kept.
            if iteration < keep[0] or (iteration not in common and iteration < keep[-1]):
                os.remove(self._file(iteration))
                name = self._filename(iteration)
                if name in self.files:
                    self.files.remove(name)

    # --- loading ------------------------------------------------------------------------------
    def maybe_load(self, trainer, optimizer=None, path=None) -> None:
        """Resume ``trainer`` from the newest checkpoint every process has complete.

        A process whose file of that iteration is missing or truncated makes every process
        fall back to an older complete set (with a warning saying so); a mixed set is never
        loaded. Without any complete set nothing changes (``updater.iteration`` stays 0).
        With the multi-node ``optimizer``, its first update then needs no broadcast.
        """
        if self.path is None:
            self.path = os.fspath(path if path is not None else getattr(trainer, "out", "."))
        iteration = _agreement.choose_common(
            self.comm,
            self._local_iterations(),
            lambda i: _agreement.check_npz(self._file(i)),
            f"checkpoint {self.name!r}",
        )
        if iteration is None:
            return
        serializers.load_npz(self._file(iteration), trainer)
        self.files = self._filenames(self._local_iterations())
        mark = getattr(optimizer, "_parameters_in_sync", None)
        if mark is not None:
            mark()

    def on_error(self, trainer, exc, tb) -> None:
        """Keep the checkpoints when training fails (they are what a relaunch resumes from)."""
        self._failed = True

    def finalize(self) -> None:
        """Remove this process's checkpoints, unless training failed."""
        if self._failed or self.path is None:
            return
        for filename in self.files:
            try:
                os.remove(os.path.join(self.path, filename))
            except FileNotFoundError:
                pass
        self.files = []

    def get_stats(self) -> str:
        """A one-line summary of the time checkpoints took on this process."""
        return self.stats.report()


def create_multi_node_checkpointer(
    name: str, comm, cp_interval: int = 5, gc_interval: int = 5, path=None
) -> _MultiNodeCheckpointer:
    """A trainer extension that checkpoints every process and resumes them together.

    Each process writes ``<name>.<rank>.<iteration>`` (an NPZ snapshot, written atomically)
    into ``path`` (default: the trainer's ``out``). Every ``gc_interval`` checkpoints the
    processes agree on the sets every one of them completed and keep the newest
    ``cp_interval``. :meth:`maybe_load` resumes from the newest complete set. The files are
    removed by ``finalize`` when training ends without an error.

    Args:
        name: Identifier of the run (the file name prefix).
        comm: A ChainerMN communicator.
        cp_interval: Number of complete checkpoint sets to keep.
        gc_interval: Number of checkpoints between removals of old ones.
        path: Directory of the files.

    Example:
        Every process of an MPI job runs it, e.g. under ``mpiexec -n 2``; the doctests run in one
        process, so they skip it.

        >>> checkpointer = chainermn.create_multi_node_checkpointer("run1", comm)  # doctest: +SKIP
        >>> trainer.extend(checkpointer, trigger=(25, "iteration"))  # doctest: +SKIP
        >>> checkpointer.maybe_load(trainer, optimizer)  # doctest: +SKIP
        >>> trainer.run()  # doctest: +SKIP
    """
    return _MultiNodeCheckpointer(name, comm, cp_interval, gc_interval, path)
