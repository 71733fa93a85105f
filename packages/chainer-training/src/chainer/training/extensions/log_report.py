"""Accumulating the observations and writing their means to a JSON log."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from typing import Any

from chainer import reporter
from chainer.serializer import Serializer
from chainer.serializers._atomic import atomic_write
from chainer.training import extension, util
from chainer.utils import argument


class LogReport(extension.Extension):
    """Trainer extension to output the accumulated results to a log file.

    At every iteration it accumulates the observed values (those of ``keys``, or all); when
    ``trigger`` fires it appends an entry with their means plus ``epoch``, ``iteration`` and
    ``elapsed_time`` to :attr:`log` and rewrites the log file, atomically: a crash while
    writing leaves the previous file intact. The file is a JSON list of those entries.

    Args:
        keys: Keys of the observed values to log; all when ``None``.
        trigger: When to append an entry.
        postprocess: Called with each entry (a dict) before it is appended; may modify it.
        filename: Log file name in the trainer's output directory (``'log'`` when ``None``);
            ``str.format`` fields are filled from the entry (``'log_{epoch}'``). ``log_name``
            is the deprecated keyword for it; ``log_name=None`` writes no file.

    Example:
        >>> from chainer import training
        >>> model = L.Classifier(L.Linear(3, 2))
        >>> x, t = numpy.ones((6, 3), numpy.float32), numpy.zeros(6, numpy.int32)
        >>> train_iter = chainer.iterators.SerialIterator(chainer.datasets.TupleDataset(x, t), 2)
        >>> optimizer = chainer.optimizers.SGD().setup(model)
        >>> updater = training.updaters.StandardUpdater(train_iter, optimizer)
        >>> trainer = training.Trainer(updater, (4, 'iteration'))
        >>> trainer.extend(LogReport(trigger=(2, 'iteration')))
        >>> trainer.run()
        >>> log = trainer.get_extension('LogReport').log
        >>> [entry['iteration'] for entry in log], sorted(log[-1])
        ([2, 4], ['elapsed_time', 'epoch', 'iteration', 'main/accuracy', 'main/loss'])
    """

    def __init__(
        self,
        keys: Iterable[str] | None = None,
        trigger: Any = (1, "epoch"),
        postprocess: Callable[[dict], None] | None = None,
        filename: str | None = None,
        **kwargs: Any,
    ) -> None:
        (log_name,) = argument.parse_kwargs(kwargs, ("log_name", "log"))
        self._keys = None if keys is None else list(keys)
        self._trigger = util.get_trigger(trigger)
        self._postprocess = postprocess
        self._log: list[dict] = []
        self._log_name = log_name if filename is None else filename
        self._summary = reporter.DictSummary()

    def __call__(self, trainer: Any) -> None:
        """Accumulate the observation; when the trigger fires, log the means."""
        observation = trainer.observation
        if self._keys is None:
            self._summary.add(observation)
        else:
            self._summary.add({k: observation[k] for k in self._keys if k in observation})
        if not self._trigger(trainer):
            return
        entry = {name: float(value) for name, value in self._summary.compute_mean().items()}
        entry["epoch"] = trainer.updater.epoch
        entry["iteration"] = trainer.updater.iteration
        entry["elapsed_time"] = trainer.elapsed_time
        if self._postprocess is not None:
            self._postprocess(entry)
        self._log.append(entry)
        if self._log_name is not None:
            path = os.path.join(trainer.out, self._log_name.format(**entry))
            with atomic_write(path) as temp_path, open(temp_path, "w", encoding="utf-8") as f:
                json.dump(self._log, f, indent=4)
        self._summary = reporter.DictSummary()

    @property
    def log(self) -> list[dict]:
        """The entries logged so far (the list itself, not a copy)."""
        return self._log

    def serialize(self, serializer: Any) -> None:
        """Save or load the trigger, the values accumulated so far and the log."""
        if hasattr(self._trigger, "serialize"):
            self._trigger.serialize(serializer["_trigger"])
        self._summary.serialize(serializer["_summary"])
        # JSON keeps every float exactly (repr round-trips), so a resumed log is identical.
        if isinstance(serializer, Serializer):
            serializer("_log", json.dumps(self._log))
        else:
            self._log = json.loads(str(serializer("_log", "")))
