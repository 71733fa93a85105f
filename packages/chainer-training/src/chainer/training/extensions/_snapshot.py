"""Snapshots of the trainer (or of any serializable object), and resuming from them."""

from __future__ import annotations

import os
import re
import string
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy

from chainer import serializers
from chainer.serializers._values import to_numpy
from chainer.training import extension
from chainer.training.extensions import snapshot_writers
from chainer.utils import argument

_TRIGGER_REMOVED = (
    "the trigger argument of snapshot() and snapshot_object() was removed in Chainer v2: give "
    "it to trainer.extend(extensions.snapshot(), trigger=...) instead"
)


class _CapturedState(dict):
    """The state of an object at one moment: a flat dict of full key to a NumPy copy.

    It is what writers receive, so a snapshot saved in the background is not affected by the
    training going on. It also implements ``serialize``: saving it with
    :func:`~chainer.serializers.save_npz` or ``save_hdf5`` writes the same file as saving the
    object itself would (``groups`` keeps the HDF5 groups of children that hold no value).
    """

    def __init__(self) -> None:
        super().__init__()
        self.groups: list[str] = []

    def serialize(self, serializer: Any) -> None:
        for group in self.groups:
            serializer[group]  # creates the group in HDF5; nothing for NPZ
        for key, value in self.items():
            serializer(key, value)


class _StateRecorder(serializers.DictionarySerializer):
    # A DictionarySerializer (objects that check for one still work) that copies every array,
    # so the captured state does not change with the training, and keeps None as None.
    def __getitem__(self, key: str) -> _StateRecorder:
        path = self.path + key.strip("/")
        self.target.groups.append(path)
        return _StateRecorder(self.target, path + "/")

    def __call__(self, key: str, value: Any) -> Any:
        full_key = self.path + key.lstrip("/")
        array = to_numpy(full_key, value)
        self.target[full_key] = None if array is None else numpy.array(array, copy=True)
        return value


def _capture(target: Any) -> _CapturedState:
    state = _CapturedState()
    _StateRecorder(state).save(target)
    return state


def _filename_pattern(filename: str) -> re.Pattern:
    # 'snapshot_iter_{.updater.iteration}' matches 'snapshot_iter_' followed by anything.
    parts = []
    for literal, field, _, _ in string.Formatter().parse(filename):
        parts.append(re.escape(literal))
        if field is not None:
            parts.append(".*")
    return re.compile("".join(parts))


def _natural_key(name: str) -> list:
    # 'snapshot_iter_9' before 'snapshot_iter_10' when their mtimes are equal (coarse clocks).
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def _find_snapshot_files(filename: str, outdir: str) -> list[tuple[float, str]]:
    """The complete snapshot files of the ``filename`` template as ``(mtime, name)``, oldest
    first.

    Files are ordered by modification time, then by name with numbers compared as numbers.
    Temporary files of unfinished writes are skipped: their names start with a dot.
    """
    if not os.path.isdir(outdir):
        return []
    pattern = _filename_pattern(filename)
    hidden_ok = filename.startswith(".")
    found = []
    for name in os.listdir(outdir):
        path = os.path.join(outdir, name)
        if name.startswith(".") and not hidden_ok:
            continue
        if pattern.fullmatch(name) and os.path.isfile(path):
            found.append((os.stat(path).st_mtime_ns, _natural_key(name), name))
    return [(mtime / 1e9, name) for mtime, _, name in sorted(found)]


def _find_latest_snapshot(filename: str, outdir: str) -> str | None:
    """The name of the newest complete snapshot file, or ``None`` when there is none."""
    found = _find_snapshot_files(filename, outdir)
    return found[-1][1] if found else None


def _find_stale_snapshots(filename: str, outdir: str, n_retains: int) -> Iterator[str]:
    """The names of the snapshot files beyond the newest ``n_retains``, oldest first."""
    found = _find_snapshot_files(filename, outdir)
    for _, name in found[: max(len(found) - n_retains, 0)]:
        yield name


class _Snapshot(extension.Extension):
    """Trainer extension that saves snapshots; see :func:`snapshot`."""

    trigger = 1, "epoch"
    # Runs after the other extensions of the iteration, so the snapshot holds their updates.
    priority = -100

    def __init__(
        self,
        target: Any = None,
        condition: Callable[[], bool] | None = None,
        writer: snapshot_writers.Writer | None = None,
        filename: str | Callable[[Any], str] = "snapshot_iter_{.updater.iteration}",
        snapshot_on_error: bool = False,
        n_retains: int = -1,
        autoload: bool = False,
        on_write_error: str = "raise",
    ) -> None:
        if on_write_error not in ("raise", "warn"):
            raise ValueError(f"on_write_error must be 'raise' or 'warn', got {on_write_error!r}")
        if (autoload or n_retains > 0) and not isinstance(filename, str):
            raise TypeError(
                "autoload and n_retains find snapshot files by the filename template, which "
                f"must then be a format string, got {filename!r}"
            )
        self._target = target
        self.filename = filename
        self.condition = condition
        self.writer = snapshot_writers.SimpleWriter() if writer is None else writer
        self._snapshot_on_error = snapshot_on_error
        self.n_retains = n_retains
        self.autoload = autoload
        self.on_write_error = on_write_error
        self._cleanup_installed = False

    def initialize(self, trainer: Any) -> None:
        """Load the latest snapshot (``autoload``) and set up removal of old ones."""
        target = trainer if self._target is None else self._target
        outdir = os.fspath(trainer.out)
        if self.autoload:
            latest = _find_latest_snapshot(self.filename, outdir)
            if latest is not None:
                serializers.load_npz(os.path.join(outdir, latest), target)
        # Writers of this module run the hook once snapshots are complete; another writer
        # keeps every file.
        add_hook = getattr(self.writer, "_add_cleanup_hook", None)
        if self.n_retains > 0 and add_hook is not None and not self._cleanup_installed:
            self._cleanup_installed = True
            add_hook(lambda: self._remove_stale(outdir))

    def _remove_stale(self, outdir: str) -> None:
        for name in _find_stale_snapshots(self.filename, outdir, self.n_retains):
            os.remove(os.path.join(outdir, name))

    def on_error(self, trainer: Any, exc: BaseException, tb: Any) -> None:
        """Save a snapshot of the state at the error when ``snapshot_on_error`` is set."""
        if self._snapshot_on_error:
            self._make_snapshot(trainer)

    def __call__(self, trainer: Any) -> None:
        """Save a snapshot (if ``condition()`` allows)."""
        if self.condition is None or self.condition():
            self._make_snapshot(trainer)

    def _make_snapshot(self, trainer: Any) -> None:
        target = trainer if self._target is None else self._target
        state = _capture(target)
        if callable(self.filename):
            filename = self.filename(trainer)
        else:
            filename = self.filename.format(trainer)
        try:
            self.writer(filename, os.fspath(trainer.out), state)
        except (OSError, RuntimeError) as error:
            # A background writer reports the OSError of an earlier snapshot as the cause
            # of a RuntimeError.
            disk_error = isinstance(error, OSError) or isinstance(error.__cause__, OSError)
            if self.on_write_error == "raise" or not disk_error:
                raise
            warnings.warn(
                f"a snapshot was not written, the training goes on (on_write_error='warn'): "
                f"{error}",
                UserWarning,
                stacklevel=2,
            )

    def finalize(self) -> None:
        """Wait for the writer to finish."""
        self.writer.finalize()


def snapshot(
    savefun: Callable | None = None,
    filename: str | Callable[[Any], str] = "snapshot_iter_{.updater.iteration}",
    **kwargs: Any,
) -> _Snapshot:
    """Returns a trainer extension to take snapshots of the trainer.

    The snapshot holds everything the trainer serializes: the updater (iterators, optimizers,
    models, iteration), the stop trigger and every extension with its trigger (the log of
    :class:`LogReport`, ...), so loading it into a freshly built trainer resumes the training
    exactly. The state is captured when the extension fires (after the other extensions of
    that iteration) and written atomically by the writer. By default it fires every epoch.

    Args:
        savefun: ``savefun(path, state)`` writes the file (:func:`~chainer.serializers.save_npz`
            when ``None``); cannot be given together with ``writer``.
        filename: Name of the file in the trainer's output directory: a format string filled
            with the trainer (``'snapshot_iter_{.updater.iteration}'``), or a callable taking
            the trainer.
        target: Object to save instead of the trainer (keyword only).
        condition: Callable without arguments; the snapshot is skipped when it returns
            ``False`` (keyword only).
        writer: A :mod:`~chainer.training.extensions.snapshot_writers` writer; a
            :class:`~chainer.training.extensions.snapshot_writers.SimpleWriter` when ``None``
            (keyword only).
        snapshot_on_error: Also save a snapshot when the training loop raises (keyword only).
        n_retains: Keep only the latest ``n_retains`` snapshot files of this template
            (all when not positive; keyword only).
        autoload: At initialization, load the latest snapshot file of this template found in
            the output directory, if any, to resume (files must be NPZ; keyword only). The
            trainer initializes such an extension before the others.
        on_write_error: What a snapshot that cannot be written (an :class:`OSError`: full
            disk, read-only directory, ...) does: ``'raise'`` stops the training with the
            error (the default, as in v7), ``'warn'`` issues a :class:`UserWarning` and the
            training goes on. Either way the previous snapshot file of that name is
            left intact and the error names the file (keyword only; not in v7).

    Returns:
        The snapshot extension.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> from chainer.training import extensions
        >>> trainer = get_trainer_with_mock_updater()  # its updater only counts iterations
        >>> trainer.extend(extensions.snapshot(n_retains=3, autoload=True),
        ...                trigger=(1000, 'iteration'))
    """
    (target, condition, writer, snapshot_on_error, n_retains, autoload, on_write_error) = (
        argument.parse_kwargs(
            kwargs,
            ("target", None),
            ("condition", None),
            ("writer", None),
            ("snapshot_on_error", False),
            ("n_retains", -1),
            ("autoload", False),
            ("on_write_error", "raise"),
            trigger=_TRIGGER_REMOVED,
        )
    )
    if savefun is not None and writer is not None:
        raise TypeError("savefun and writer cannot be given together: give the writer a savefun")
    if writer is None:
        writer = snapshot_writers.SimpleWriter(
            savefun=serializers.save_npz if savefun is None else savefun
        )
    return _Snapshot(
        target=target,
        condition=condition,
        writer=writer,
        filename=filename,
        snapshot_on_error=snapshot_on_error,
        n_retains=n_retains,
        autoload=autoload,
        on_write_error=on_write_error,
    )


def snapshot_object(
    target: Any, filename: str | Callable[[Any], str], savefun: Callable | None = None, **kwargs
) -> _Snapshot:
    """Returns a trainer extension to take snapshots of a given object.

    Args:
        target: Object to save (a link, an optimizer, ...).
        filename: Name of the file in the trainer's output directory: a format string filled
            with the trainer (``'model_epoch_{.updater.epoch}'``), or a callable taking the
            trainer.
        savefun: ``savefun(path, state)`` writes the file (:func:`~chainer.serializers.save_npz`
            when ``None``).
        condition: See :func:`snapshot` (keyword only).
        writer: See :func:`snapshot` (keyword only).
        snapshot_on_error: See :func:`snapshot` (keyword only).

    Returns:
        The snapshot extension.

    Example:
        >>> from chainer.testing import get_trainer_with_mock_updater
        >>> from chainer.training import extensions
        >>> trainer = get_trainer_with_mock_updater((2, 'epoch'))  # only counts iterations
        >>> model = L.Linear(3, 2)
        >>> trainer.extend(extensions.snapshot_object(model, 'model_epoch_{.updater.epoch}'))
        >>> trainer.run()
        >>> import os
        >>> sorted(os.listdir(trainer.out))
        ['model_epoch_1', 'model_epoch_2']
    """
    condition, writer, snapshot_on_error = argument.parse_kwargs(
        kwargs,
        ("condition", None),
        ("writer", None),
        ("snapshot_on_error", False),
        trigger=_TRIGGER_REMOVED,
    )
    return snapshot(
        savefun,
        filename,
        target=target,
        condition=condition,
        writer=writer,
        snapshot_on_error=snapshot_on_error,
    )
