"""The standard training loop: an updater plus extensions, until a stop trigger fires."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sys
import time
import traceback
from collections.abc import Iterable
from typing import Any

from chainer import reporter as reporter_module
from chainer.serializer import Serializer
from chainer.training import extension as extension_module
from chainer.training import util
from chainer.utils import argument

_get_time = time.perf_counter


@dataclasses.dataclass
class _ExtensionEntry:
    extension: Any
    priority: int
    trigger: Any
    call_before_training: bool


class Trainer:
    """The standard training loop in Chainer.

    :meth:`run` repeats, until ``stop_trigger`` fires: call ``updater.update()`` inside a fresh
    observation scope of :attr:`reporter`, then call every extension whose trigger fires, in
    decreasing order of priority (ties in the order they were added). Values reported by the
    optimizers' target links during the update are named ``'<optimizer name>/<key>'``
    (``'main/loss'``), and those of their descendants by their path (``'main/predictor/...'``).

    Args:
        updater: The updater (:class:`~chainer.training.updaters.StandardUpdater`, ...).
        stop_trigger: When to stop: a trigger, a ``(length, unit)`` tuple, or ``None`` (never).
        out: Output directory of the extensions (logs, plots, snapshots); created by
            :meth:`run`.
        extensions: Extensions to add right away with their default settings.

    Attributes:
        updater: The updater.
        stop_trigger: The stop trigger.
        observation (dict): The values reported in the current iteration.
        out: The output directory.
        reporter (chainer.Reporter): The reporter; the optimizers' targets and their
            descendants are registered as observers.

    Example:
        >>> from chainer import training
        >>> from chainer.training import extensions
        >>> model = L.Classifier(L.Linear(3, 2))
        >>> x, t = numpy.ones((6, 3), numpy.float32), numpy.zeros(6, numpy.int32)
        >>> train_iter = chainer.iterators.SerialIterator(chainer.datasets.TupleDataset(x, t), 2)
        >>> optimizer = chainer.optimizers.SGD().setup(model)
        >>> updater = training.updaters.StandardUpdater(train_iter, optimizer)
        >>> trainer = training.Trainer(updater, (2, 'epoch'), out='result')
        >>> trainer.extend(extensions.LogReport())
        >>> trainer.run()
        >>> [entry['epoch'] for entry in trainer.get_extension('LogReport').log]
        [1, 2]
    """

    def __init__(
        self,
        updater: Any,
        stop_trigger: Any = None,
        out: str | os.PathLike = "result",
        extensions: Iterable[Any] | None = None,
    ) -> None:
        self.updater = updater
        self.stop_trigger = util.get_trigger(stop_trigger)
        self.observation: dict[str, Any] = {}
        self.out = out
        self.reporter = reporter_module.Reporter()
        for name, optimizer in updater.get_all_optimizers().items():
            self.reporter.add_observer(name, optimizer.target)
            self.reporter.add_observers(name, optimizer.target.namedlinks(skipself=True))
        self._done = False
        self._extensions: dict[str, _ExtensionEntry] = {}
        self._start_at: float | None = None
        self._snapshot_elapsed_time = 0.0
        self._final_elapsed_time: float | None = None
        updater.connect_trainer(self)
        for extension in extensions or ():
            self.extend(extension)

    @property
    def is_before_training(self) -> bool:
        """Whether no update has been done yet (``updater.iteration == 0``)."""
        return self.updater.iteration == 0

    @property
    def elapsed_time(self) -> float:
        """Seconds of training so far, including the time before a resumed snapshot.

        Raises:
            RuntimeError: The training loop has not started.
        """
        if self._done:
            return self._final_elapsed_time
        if self._start_at is None:
            raise RuntimeError("training has not been started yet: call trainer.run() first")
        return _get_time() - self._start_at + self._snapshot_elapsed_time

    def extend(
        self,
        extension: Any,
        name: str | None = None,
        trigger: Any = None,
        priority: int | None = None,
        *,
        call_before_training: bool = False,
        **kwargs: Any,
    ) -> None:
        """Register an extension.

        Args:
            extension: An :class:`~chainer.training.Extension` or any callable taking the
                trainer (see :func:`~chainer.training.make_extension`).
            name: Its name; defaults to ``extension.name``, then ``extension.default_name``,
                then ``extension.__name__``. A name already taken gets a suffix ``_1``,
                ``_2``, ... The name ``'training'`` is reserved.
            trigger: When to call it; defaults to ``extension.trigger``, else every iteration.
            priority: Defaults to ``extension.priority``, else
                :data:`~chainer.training.PRIORITY_READER`.
            call_before_training: Also call the extension once before the first update.

        Raises:
            TypeError: No name is given and the extension has none.
            ValueError: The name is ``'training'``.
        """
        argument.check_unexpected_kwargs(
            kwargs, invoke_before_training=extension_module._INVOKE_BEFORE_TRAINING_REMOVED
        )
        argument.assert_kwargs_empty(kwargs)
        if name is None:
            name = _default_name(extension)
        if name == "training":
            raise ValueError('the name "training" is reserved and cannot name an extension')
        if trigger is None:
            trigger = getattr(extension, "trigger", (1, "iteration"))
        trigger = util.get_trigger(trigger)
        if priority is None:
            priority = getattr(extension, "priority", extension_module.PRIORITY_READER)
        unique_name, ordinal = name, 0
        while unique_name in self._extensions:
            ordinal += 1
            unique_name = f"{name}_{ordinal}"
        extension.name = unique_name
        self._extensions[unique_name] = _ExtensionEntry(
            extension, priority, trigger, call_before_training
        )

    def get_extension(self, name: str) -> Any:
        """Return the extension registered as ``name``.

        Raises:
            ValueError: There is no extension of that name.
        """
        entry = self._extensions.get(name)
        if entry is None:
            raise ValueError(
                f"extension {name!r} not found; registered extensions: {list(self._extensions)}"
            )
        return entry.extension

    def run(self, show_loop_exception_msg: bool = True) -> None:
        """Run the training loop until the stop trigger fires.

        Before the loop every extension's ``initialize(trainer)`` is called, unless its trigger
        is ``finished``. Extensions that restore the trainer from a snapshot (with a true
        ``autoload`` attribute, as ``extensions.snapshot(autoload=True)``) are initialized
        first, so the others initialize from the restored state. If the loop raises, every
        extension's ``on_error(trainer, exc, tb)`` is called; in any case every extension's
        ``finalize()`` and then ``updater.finalize()`` are called.

        Args:
            show_loop_exception_msg: Print the exception and its traceback to stderr as soon
                as the loop fails (before the handlers run, in case one of them hangs).

        Raises:
            RuntimeError: The trainer has already run.
        """
        if self._done:
            raise RuntimeError("cannot run the training loop of a trainer multiple times")
        os.makedirs(self.out, exist_ok=True)
        entries = sorted(self._extensions.values(), key=lambda e: e.priority, reverse=True)
        self._start_at = _get_time()
        restoring_first = sorted(
            entries, key=lambda e: not getattr(e.extension, "autoload", False)
        )
        for entry in restoring_first:
            initializer = getattr(entry.extension, "initialize", None)
            if initializer and not getattr(entry.trigger, "finished", False):
                initializer(self)
        try:
            self.observation = {}
            with self.reporter.scope(self.observation):
                for entry in entries:
                    if entry.call_before_training:
                        entry.extension(self)
            while not self.stop_trigger(self):
                self.observation = {}
                with self.reporter.scope(self.observation):
                    self.updater.update()
                    for entry in entries:
                        if entry.trigger(self):
                            entry.extension(self)
        except Exception as exc:
            if show_loop_exception_msg:
                # The report must not replace the error: stderr may be a file on the very disk
                # that just became full.
                with contextlib.suppress(OSError):
                    print(f"Exception in main training loop: {exc}", file=sys.stderr)
                    print("Traceback (most recent call last):", file=sys.stderr)
                    traceback.print_tb(exc.__traceback__, file=sys.stderr)
                    print(
                        "Will finalize trainer extensions and updater before reraising the "
                        "exception.",
                        file=sys.stderr,
                    )
            _call_error_handlers(self, entries, exc)
            raise
        finally:
            for entry in entries:
                finalize = getattr(entry.extension, "finalize", None)
                if finalize:
                    finalize()
            self.updater.finalize()
        self._final_elapsed_time = self.elapsed_time
        self._done = True

    def serialize(self, serializer: Any) -> None:
        """Save or load the updater, the stop trigger, every extension and its trigger.

        The elapsed time is saved too, so that :attr:`elapsed_time` continues after a resume.
        """
        self.updater.serialize(serializer["updater"])
        if hasattr(self.stop_trigger, "serialize"):
            self.stop_trigger.serialize(serializer["stop_trigger"])
        extensions = serializer["extensions"]
        triggers = serializer["extension_triggers"]
        for name, entry in self._extensions.items():
            if hasattr(entry.extension, "serialize"):
                entry.extension.serialize(extensions[name])
            if hasattr(entry.trigger, "serialize"):
                entry.trigger.serialize(triggers[name])
        if isinstance(serializer, Serializer):
            elapsed = self._snapshot_elapsed_time if self._start_at is None else self.elapsed_time
            serializer("_snapshot_elapsed_time", elapsed)
        else:
            self._snapshot_elapsed_time = float(serializer("_snapshot_elapsed_time", 0.0))
            if self._start_at is not None:
                self._start_at = _get_time()


def _default_name(extension: Any) -> str:
    for attribute in ("name", "default_name", "__name__"):
        name = getattr(extension, attribute, None)
        if name is not None:
            return name
    raise TypeError(
        f"the extension {extension!r} has no name: give extend(..., name=...) or define "
        "default_name"
    )


def _call_error_handlers(trainer: Trainer, entries: list, exc: Exception) -> None:
    # Every handler runs; a failing handler is reported and ignored so that the others and
    # the finalizers still run and the original exception propagates.
    for entry in entries:
        handler = getattr(entry.extension, "on_error", None)
        if not handler:
            continue
        try:
            handler(trainer, exc, exc.__traceback__)
        except Exception as handler_exc:
            print(f"Exception in error handler: {handler_exc}", file=sys.stderr)
            print("Traceback (most recent call last):", file=sys.stderr)
            traceback.print_tb(handler_exc.__traceback__, file=sys.stderr)
