"""Worker processes that load the examples of batches for ``MultiprocessIterator``.

The parent splits each batch into one task per worker and sends the tasks down one pipe per
worker; a reader thread in each worker queues them, so the parent never blocks on a busy
worker. Each worker answers on a pipe of its own, with the examples in the batch's shared
memory block (see :mod:`._shared_memory`) or pickled.

Failures never hang the parent: it waits on the result pipes *and* on the processes, so a
worker that dies (killed, segfault, ``os._exit``) is noticed at once, and an exception raised
by the dataset in a worker is sent back and raised in the parent. With the ``fork`` start
method every worker closes the inherited pipe ends of the other workers, so that a pipe
reports end-of-file exactly when its one writer is gone; likewise the workers exit when the
parent closes their task pipes or dies.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import multiprocessing.connection
import multiprocessing.resource_tracker
import pickle
import queue
import signal
import threading
import time
import traceback
import warnings
from typing import Any

from chainer.iterators import _shared_memory


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker process (shown as its cause)."""

    def __str__(self) -> str:
        return "\n" + self.args[0]


class Ticket:
    """A batch being loaded: its examples arrive task by task."""

    def __init__(self, size: int, block: Any, slot_bytes: int) -> None:
        self.examples: list = [None] * size
        self.pending: set[int] = set()  # ids of the tasks not answered yet
        self.error: BaseException | None = None
        self.discarded = False
        self.block = block
        self.slot_bytes = slot_bytes


class _Worker:
    def __init__(self, process: Any, tasks: Any, results: Any) -> None:
        self.process = process
        self.tasks = tasks  # parent's sending end
        self.results = results  # parent's receiving end
        self.assigned = 0  # tasks sent over the worker's lifetime
        self.outstanding: set[int] = set()


class BatchLoader:
    """A pool of worker processes loading batches of ``dataset`` examples.

    Args:
        dataset: The dataset (inherited by ``fork``, else pickled to each worker).
        n_processes: The number of worker processes.
        shared_mem: Bytes of shared memory per example; ``None`` sizes it from the examples.
        maxtasksperchild: Tasks (one per worker per batch) a worker runs before it is
            replaced by a fresh process; ``None`` for no limit.
    """

    def __init__(
        self,
        dataset: Any,
        n_processes: int,
        shared_mem: int | None,
        maxtasksperchild: int | None,
    ) -> None:
        self._dataset = dataset
        self._context = multiprocessing.get_context()
        self._maxtasks = maxtasksperchild
        self._auto_size = shared_mem is None
        self._slot_bytes = 0 if shared_mem is None else _shared_memory.aligned(shared_mem)
        self._task_ids = itertools.count()
        self._tickets: dict[int, Ticket] = {}  # task id -> ticket
        self._free_blocks: list = []
        self._retiring: list[_Worker] = []
        self._closed = False
        if self._context.get_start_method() == "fork":
            # Workers then share the parent's resource tracker (see _shared_memory._attach).
            multiprocessing.resource_tracker.ensure_running()
        self._workers = [None] * n_processes
        for slot in range(n_processes):
            self._workers[slot] = self._start_worker()
        self._next_slot = 0

    def _start_worker(self) -> _Worker:
        task_receiver, task_sender = self._context.Pipe(duplex=False)
        result_receiver, result_sender = self._context.Pipe(duplex=False)
        inherited: list = []
        if self._context.get_start_method() == "fork":
            inherited = [task_sender, result_receiver]
            for worker in [*self._workers, *self._retiring]:
                if worker is not None:
                    inherited += [worker.tasks, worker.results]
        process = self._context.Process(
            target=_work,
            args=(self._dataset, task_receiver, result_sender, inherited),
            name="MultiprocessIterator-worker",
            daemon=True,
        )
        process.start()
        task_receiver.close()
        result_sender.close()
        return _Worker(process, task_sender, result_receiver)

    def submit(self, indices: list[int]) -> Ticket:
        """Start loading the examples ``indices``; returns the ticket to wait on."""
        size = len(indices)
        ticket = Ticket(size, self._take_block(size), self._slot_bytes)
        block_name = None if ticket.block is None else ticket.block.name
        n_tasks = min(len(self._workers), size)
        for part in range(n_tasks):
            start, stop = size * part // n_tasks, size * (part + 1) // n_tasks
            items = list(zip(range(start, stop), indices[start:stop]))
            task_id = next(self._task_ids)
            ticket.pending.add(task_id)
            self._tickets[task_id] = ticket
            self._send(task_id, (task_id, items, block_name, ticket.slot_bytes))
        return ticket

    def _send(self, task_id: int, task: tuple) -> None:
        slot = self._next_slot
        self._next_slot = (slot + 1) % len(self._workers)
        worker = self._workers[slot]
        worker.outstanding.add(task_id)
        worker.assigned += 1
        with contextlib.suppress(OSError):  # a dead worker is noticed by the wait loop
            worker.tasks.send(task)
        if self._maxtasks is not None and worker.assigned >= self._maxtasks:
            self._retire(slot)

    def _retire(self, slot: int) -> None:
        worker = self._workers[slot]
        with contextlib.suppress(OSError):
            worker.tasks.send(None)  # the worker exits after its queued tasks
        self._retiring.append(worker)
        self._workers[slot] = self._start_worker()

    def _take_block(self, size: int) -> Any:
        if self._slot_bytes == 0:
            return None
        while self._free_blocks:
            block = self._free_blocks.pop()
            if block.size >= size * self._slot_bytes:
                return block
            _release(block)
        return _shared_memory.create_block(size * self._slot_bytes)

    def discard(self, ticket: Ticket) -> None:
        """Drop a ticket; its results are thrown away as they arrive."""
        ticket.discarded = True
        self._finish_if_done(ticket)

    def wait(self, ticket: Ticket, timeout: float | None, warning: type[Warning]) -> list:
        """Wait for all examples of ``ticket`` and return them in order.

        A :class:`warning` is issued once if that takes longer than ``timeout`` seconds.

        Raises:
            Exception: The exception raised by the dataset in a worker.
            RuntimeError: A worker process died while loading the batch.
        """
        deadline = None if not timeout else time.monotonic() + timeout
        while ticket.pending and ticket.error is None:
            remaining = None if deadline is None else max(deadline - time.monotonic(), 0.0)
            if not self._poll(remaining) and deadline is not None:
                warnings.warn(_stall_message(timeout), warning, stacklevel=3)
                deadline = None
        if ticket.error is not None:
            raise ticket.error
        return ticket.examples

    def _poll(self, timeout: float | None) -> bool:
        workers = [*self._workers, *self._retiring]
        waitables = [w.results for w in workers] + [w.process.sentinel for w in workers]
        ready = multiprocessing.connection.wait(waitables, timeout)
        for worker in workers:
            if worker.results in ready:
                self._receive(worker)
            if worker.process.sentinel in ready:
                self._bury(worker)
        return bool(ready)

    def _receive(self, worker: _Worker) -> None:
        try:
            while worker.results.poll():
                self._handle(worker, worker.results.recv())
        except (EOFError, OSError):
            pass  # the worker is gone; its sentinel reports why

    def _handle(self, worker: _Worker, message: tuple) -> None:
        kind, task_id, payload = message
        worker.outstanding.discard(task_id)
        ticket = self._tickets.pop(task_id, None)
        if ticket is None:
            return
        ticket.pending.discard(task_id)
        if kind == "error":
            error, text = payload
            error.__cause__ = RemoteTraceback(text)
            if ticket.error is None:
                ticket.error = error
        elif not ticket.discarded:
            buffer = None if ticket.block is None else ticket.block.buf
            for position, template, needed in payload:
                ticket.examples[position] = _shared_memory.unpack(
                    template, buffer, position, ticket.slot_bytes
                )
                if self._auto_size and needed > self._slot_bytes:
                    self._slot_bytes = needed
        self._finish_if_done(ticket)

    def _bury(self, worker: _Worker) -> None:
        self._receive(worker)  # what it sent before dying
        worker.process.join()
        lost = [task_id for task_id in worker.outstanding if task_id in self._tickets]
        for task_id in lost:
            ticket = self._tickets.pop(task_id)
            ticket.pending.discard(task_id)
            if ticket.error is None:
                ticket.error = RuntimeError(
                    f"a MultiprocessIterator worker process (pid {worker.process.pid}) died "
                    f"with exit code {worker.process.exitcode} while loading examples"
                )
            self._finish_if_done(ticket)
        worker.outstanding.clear()
        self._close_worker(worker)
        if worker in self._retiring:
            self._retiring.remove(worker)
        else:
            self._workers[self._workers.index(worker)] = self._start_worker()

    def _finish_if_done(self, ticket: Ticket) -> None:
        if ticket.pending or ticket.block is None:
            return
        block, ticket.block = ticket.block, None
        if self._closed:
            _release(block)
        else:
            self._free_blocks.append(block)  # _take_block drops it if it is too small

    def close(self) -> None:
        """Stop the workers (terminating those still busy after a moment) and free memory."""
        if self._closed:
            return
        self._closed = True
        workers = [w for w in [*self._workers, *self._retiring] if w is not None]
        for worker in workers:
            self._close_worker(worker)
        deadline = time.monotonic() + 1.0
        for worker in workers:
            worker.process.join(max(deadline - time.monotonic(), 0.0))
            if worker.process.is_alive():
                worker.process.terminate()
                worker.process.join()
        self._workers, self._retiring = [], []
        tickets = {id(t): t for t in self._tickets.values()}.values()
        for block in [*self._free_blocks, *(t.block for t in tickets if t.block is not None)]:
            _release(block)
        self._free_blocks, self._tickets = [], {}

    @staticmethod
    def _close_worker(worker: _Worker) -> None:
        # An explicit stop: end-of-file alone can come late, as processes forked meanwhile
        # (workers of other iterators) hold copies of the pipe.
        with contextlib.suppress(OSError):
            worker.tasks.send(None)
        worker.tasks.close()
        worker.results.close()


def _release(block: Any) -> None:
    block.close()
    with contextlib.suppress(FileNotFoundError):
        block.unlink()


def _stall_message(timeout: float) -> str:
    return (
        f"a MultiprocessIterator batch took more than {timeout} seconds to load: the dataset "
        "may be stalled (a deadlock after fork, e.g. OpenCV or MPI in the workers, or a slow "
        "file system); see the documentation of MultiprocessIterator for workarounds"
    )


def _work(dataset: Any, tasks: Any, results: Any, inherited: list) -> None:
    """A worker process: load the examples of each task and send them back."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    for connection in inherited:
        connection.close()
    inbox: queue.SimpleQueue = queue.SimpleQueue()
    threading.Thread(target=_read_tasks, args=(tasks, inbox), daemon=True).start()
    blocks = _shared_memory.AttachedBlocks()
    try:
        while (task := inbox.get()) is not None:
            task_id, items, block_name, slot_bytes = task
            index = None
            try:
                buffer = blocks.buffer(block_name)
                payload = []
                for position, index in items:
                    template, needed = _shared_memory.pack(
                        dataset[index], buffer, position, slot_bytes
                    )
                    payload.append((position, template, needed))
                results.send(("ok", task_id, payload))
            except Exception as error:
                results.send(("error", task_id, _portable(error, index)))
    except (BrokenPipeError, EOFError, OSError):
        pass  # the parent is gone
    finally:
        blocks.close()


def _read_tasks(tasks: Any, inbox: queue.SimpleQueue) -> None:
    try:
        while True:
            inbox.put(tasks.recv())
    except (EOFError, OSError):
        inbox.put(None)


def _portable(error: Exception, index: int | None) -> tuple[Exception, str]:
    """``error`` in a form that survives pickling, and the worker's traceback as text.

    (Pickling drops ``__cause__``, so the parent attaches the traceback itself.)
    """
    text = "".join(traceback.format_exception(error))
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        error = RuntimeError(f"{type(error).__name__}: {error}")
    return error, f"raised in a MultiprocessIterator worker at the example {index}:\n{text}"
