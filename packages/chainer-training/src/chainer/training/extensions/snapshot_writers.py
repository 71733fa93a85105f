"""Snapshot writers: how (and in which thread or process) the snapshot extension saves files.

A writer is called as ``writer(filename, outdir, target)``, where ``target`` is the state to
save as the snapshot extension captured it (a copy, so the training may go on meanwhile).
Every writer saves atomically: ``savefun`` writes a temporary file in ``outdir``, which is
flushed to disk and then renamed to ``filename``. A crash, even a ``SIGKILL``, during the write
therefore leaves the previous snapshot of that name, and every other file, intact.

:class:`SimpleWriter` saves in the calling thread; :class:`ThreadWriter` and
:class:`ProcessWriter` save each snapshot in a new thread or process (waiting for the
previous one first); :class:`ThreadQueueWriter` and :class:`ProcessQueueWriter` queue the
snapshots to one long-lived consumer thread or process.

Example:
    >>> from chainer.testing import get_trainer_with_mock_updater
    >>> from chainer.training import extensions
    >>> from chainer.training.extensions import snapshot_writers
    >>> trainer = get_trainer_with_mock_updater()  # its updater only counts iterations
    >>> writer = snapshot_writers.ThreadWriter()
    >>> trainer.extend(extensions.snapshot(writer=writer), trigger=(1, 'epoch'))
"""

from __future__ import annotations

import os
import queue
import threading
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chainer.serializers import npz
from chainer.serializers._atomic import atomic_write

if TYPE_CHECKING:
    import multiprocessing


def _save_atomically(filename: str, outdir: str, target: Any, savefun: Callable, kwds: dict):
    # A module-level function, so that a process started with spawn can pickle it.
    os.makedirs(outdir, exist_ok=True)
    with atomic_write(os.path.join(outdir, filename)) as temp_path:
        savefun(temp_path, target, **kwds)


def _check_fs(fs: Any) -> None:
    if fs is not None:
        raise NotImplementedError(
            "snapshot writers save to the local file system only; fs (a pfio file system) is "
            f"not supported, got {fs!r}"
        )


class Writer:
    """Base class of snapshot writers.

    Subclasses implement :meth:`__call__`, usually with :meth:`save`, and override
    :meth:`finalize` when saving happens in the background.
    """

    def __init__(self) -> None:
        self._post_save_hooks: list[Callable[[], None]] = []

    def __call__(self, filename: str, outdir: str, target: Any) -> None:
        """Save ``target`` as ``outdir/filename``."""
        raise NotImplementedError(f"{type(self).__name__} must implement __call__")

    def finalize(self) -> None:
        """Wait for snapshots still being written (nothing to wait for here)."""

    def save(
        self, filename: str, outdir: str, target: Any, savefun: Callable, **kwds: Any
    ) -> None:
        """Save atomically: ``savefun(temp_path, target, **kwds)``, then rename to ``filename``.

        ``outdir`` is created if needed.
        """
        _save_atomically(filename, outdir, target, savefun, kwds)

    def _add_cleanup_hook(self, hook: Callable[[], None]) -> None:
        """Register ``hook()``, run in the calling process once snapshots are complete."""
        self._post_save_hooks.append(hook)

    def _post_save(self) -> None:
        for hook in self._post_save_hooks:
            hook()


class SimpleWriter(Writer):
    """The most simple snapshot writer: it saves in the calling thread.

    Args:
        savefun: ``savefun(path, target, **kwds)`` writes a file
            (:func:`chainer.serializers.save_npz` by default).
        fs: Not supported (a pfio file system in Chainer); must be ``None``.
        kwds: Keyword arguments for ``savefun``.
    """

    def __init__(self, savefun: Callable = npz.save_npz, fs: Any = None, **kwds: Any) -> None:
        super().__init__()
        _check_fs(fs)
        self._savefun = savefun
        self._kwds = kwds

    def __call__(self, filename: str, outdir: str, target: Any) -> None:
        self.save(filename, outdir, target, self._savefun, **self._kwds)
        self._post_save()


class _ThreadJob(threading.Thread):
    """A thread that keeps the exception of its target for whoever joins it."""

    def __init__(self, target: Callable, args: tuple) -> None:
        super().__init__(target=target, args=args, daemon=True)
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            super().run()
        except BaseException as error:  # handed to the joining thread by _join
            self.error = error


def _join(worker: Any, what: str) -> None:
    """Join a thread or process started by a writer; raise if its work failed."""
    worker.join()
    # A worker from an overridden create_worker may be any object with start() and join().
    error = getattr(worker, "error", None)
    if isinstance(error, BaseException):
        raise RuntimeError(
            f"{what} failed in a background thread: {type(error).__name__}: {error}"
        ) from error
    exitcode = getattr(worker, "exitcode", None)
    if isinstance(exitcode, int) and exitcode != 0:
        raise RuntimeError(f"{what} failed in a background process (exit code {exitcode})")


class StandardWriter(Writer):
    """Base class of the writers that save each snapshot in a new worker.

    A call first waits for the previous snapshot to be complete, so at most one is being
    written at a time. Subclasses implement :meth:`create_worker`.

    Args:
        savefun: ``savefun(path, target, **kwds)`` writes a file.
        fs: Not supported; must be ``None``.
        kwds: Keyword arguments for ``savefun``.
    """

    def __init__(self, savefun: Callable = npz.save_npz, fs: Any = None, **kwds: Any) -> None:
        super().__init__()
        _check_fs(fs)
        self._savefun = savefun
        self._kwds = kwds
        self._worker: Any = None

    def __call__(self, filename: str, outdir: str, target: Any) -> None:
        self._wait()
        self._worker = self.create_worker(filename, outdir, target, **self._kwds)
        self._worker.start()

    def create_worker(self, filename: str, outdir: str, target: Any, **kwds: Any) -> Any:
        """Return an unstarted thread or process that saves ``target`` (see :meth:`save`)."""
        raise NotImplementedError(f"{type(self).__name__} must implement create_worker")

    def _wait(self) -> None:
        worker, self._worker = self._worker, None
        if worker is not None:
            _join(worker, "saving a snapshot")
            self._post_save()

    def finalize(self) -> None:
        """Wait until the last snapshot is written; raise if writing it failed."""
        self._wait()


class ThreadWriter(StandardWriter):
    """Snapshot writer that uses a separate thread.

    Args:
        savefun: ``savefun(path, target, **kwds)`` writes a file.
        fs: Not supported; must be ``None``.
        kwds: Keyword arguments for ``savefun``.
    """

    def create_worker(self, filename: str, outdir: str, target: Any, **kwds: Any) -> Any:
        return _ThreadJob(_save_atomically, (filename, outdir, target, self._savefun, kwds))


class ProcessWriter(StandardWriter):
    """Snapshot writer that uses a separate process.

    The process gets the target by the :mod:`multiprocessing` start method's means: with
    ``spawn`` or ``forkserver`` ``savefun`` and the target are pickled.

    Args:
        savefun: ``savefun(path, target, **kwds)`` writes a file.
        fs: Not supported; must be ``None``.
        kwds: Keyword arguments for ``savefun``.
    """

    def create_worker(self, filename: str, outdir: str, target: Any, **kwds: Any) -> Any:
        import multiprocessing  # here: 4 ms at import, for the two process writers only

        return multiprocessing.Process(
            target=_save_atomically,
            args=(filename, outdir, target, self._savefun, kwds),
            daemon=True,
        )


def _consume_queue(task_queue: Any) -> None:
    # Runs until the None sentinel; a failed task does not stop the others. Raising at the end
    # makes the failure visible to finalize (thread: kept error, process: exit code).
    failures = 0
    while True:
        item = task_queue.get()
        try:
            if item is None:
                break
            # (task, filename, outdir, target), indexed as v7 does so any sequence works
            item[0](item[1], item[2], item[3])
        except Exception:
            failures += 1
            traceback.print_exc()
        finally:
            task_queue.task_done()
    if failures:
        raise RuntimeError(f"{failures} queued snapshot(s) could not be written")


class QueueWriter(Writer):
    """Base class of queue snapshot writers.

    Snapshots are put on a queue that one consumer (thread or process), started with the
    writer, saves in order. Subclasses implement :meth:`create_queue` and
    :meth:`create_consumer`.

    Args:
        savefun: ``savefun(path, target)`` writes a file (used when ``task`` is ``None``).
        fs: Not supported; must be ``None``.
        task: ``task(filename, outdir, target)`` saves one snapshot; a
            :class:`SimpleWriter` of ``savefun`` when ``None``.
    """

    def __init__(
        self, savefun: Callable = npz.save_npz, fs: Any = None, task: Callable | None = None
    ) -> None:
        super().__init__()
        _check_fs(fs)
        self._task = self.create_task(savefun) if task is None else task
        self._queue = self.create_queue()
        self._consumer = self.create_consumer(self._queue)
        self._consumer.start()
        self._finalized = False

    def __call__(self, filename: str, outdir: str, target: Any) -> None:
        if self._finalized:
            raise RuntimeError(f"{type(self).__name__} was finalized and cannot save anymore")
        self._queue.put((self._task, filename, outdir, target))
        self._post_save()  # snapshots completed so far are final; older ones may be removed

    def create_task(self, savefun: Callable) -> Callable:
        """Return the callable that saves one snapshot."""
        return SimpleWriter(savefun=savefun)

    def create_queue(self) -> Any:
        """Return the queue of snapshots to save."""
        raise NotImplementedError(f"{type(self).__name__} must implement create_queue")

    def create_consumer(self, q: Any) -> Any:
        """Return an unstarted thread or process that runs :meth:`consume` on ``q``."""
        raise NotImplementedError(f"{type(self).__name__} must implement create_consumer")

    def consume(self, q: Any) -> None:
        """Save the queued snapshots until the end marker (``None``) arrives."""
        _consume_queue(q)

    def finalize(self) -> None:
        """Wait until every queued snapshot is written; raise if one of them failed."""
        if self._finalized:
            return
        self._finalized = True
        self._queue.put(None)
        self._queue.join()
        _join(self._consumer, "saving a queued snapshot")
        self._post_save()


class ThreadQueueWriter(QueueWriter):
    """Snapshot writer that uses a thread queue.

    Args:
        savefun: ``savefun(path, target)`` writes a file.
        fs: Not supported; must be ``None``.
        task: ``task(filename, outdir, target)`` saves one snapshot.
    """

    def create_queue(self) -> queue.Queue:
        return queue.Queue()

    def create_consumer(self, q: queue.Queue) -> threading.Thread:
        return _ThreadJob(self.consume, (q,))


class ProcessQueueWriter(QueueWriter):
    """Snapshot writer that uses process queue.

    With the ``spawn`` or ``forkserver`` start method the task and the targets are pickled.

    Args:
        savefun: ``savefun(path, target)`` writes a file.
        fs: Not supported; must be ``None``.
        task: ``task(filename, outdir, target)`` saves one snapshot.
    """

    def create_queue(self) -> Any:
        import multiprocessing

        return multiprocessing.JoinableQueue()

    def create_consumer(self, q: Any) -> multiprocessing.Process:
        import multiprocessing

        return multiprocessing.Process(target=_consume_queue, args=(q,), daemon=True)
