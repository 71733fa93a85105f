"""MultiprocessParallelUpdater when a worker process is SIGKILLed or stalls: the step fails
with a clear error within a bounded time, and finalize leaves no process behind."""

import multiprocessing
import os
import pathlib
import signal
import threading
import time

import pytest

from chainer import iterators, optimizers
from chainer.training.updaters import MultiprocessParallelUpdater, multiprocess_parallel_updater


class StallsInWorkers:
    """A dataset whose examples stall ``sleep`` seconds in any process but its creator,
    writing that process's pid to ``marker`` first."""

    def __init__(self, examples, marker, sleep):
        self.examples, self.marker, self.sleep = examples, marker, sleep
        self.creator = os.getpid()

    def __len__(self):
        return len(self.examples)

    def __getitem__(self, i):
        if os.getpid() != self.creator:
            pathlib.Path(self.marker).write_text(str(os.getpid()))
            time.sleep(self.sleep)
        return self.examples[i]


def _updater(kit, marker, sleep, **kwargs):
    model = kit.LinearRegression()
    optimizer = optimizers.SGD(lr=0.2).setup(model)
    shards = [kit.regression_data(8, seed=s) for s in (10, 11)]
    datasets = [shards[0], StallsInWorkers(shards[1], marker, sleep)]
    its = [iterators.SerialIterator(d, 4, shuffle=False) for d in datasets]
    with pytest.warns(UserWarning, match="optimizer.lr is changed"):
        return MultiprocessParallelUpdater(its, optimizer, devices=["@numpy"] * 2, **kwargs)


def _kill_when_written(marker):
    def kill():
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            text = pathlib.Path(marker).read_text() if os.path.exists(marker) else ""
            if text:
                os.kill(int(text), signal.SIGKILL)
                return
            time.sleep(0.01)

    thread = threading.Thread(target=kill, daemon=True)
    thread.start()
    return thread


def test_a_sigkilled_worker_fails_the_step_at_once(kit, tmp_path):
    marker = str(tmp_path / "pid")
    updater = _updater(kit, marker, sleep=60)
    killer = _kill_when_written(marker)
    start = time.monotonic()
    try:
        with pytest.raises(RuntimeError, match="worker process 1 exited unexpectedly"):
            updater.update()
        assert time.monotonic() - start < 10
    finally:
        killer.join()
        updater.finalize()
    assert multiprocessing.active_children() == []


def test_a_stalled_worker_fails_the_step_after_worker_timeout(kit, tmp_path, monkeypatch):
    monkeypatch.setattr(multiprocess_parallel_updater, "_FINALIZE_GRACE", 0.5)
    updater = _updater(kit, str(tmp_path / "pid"), sleep=3600, worker_timeout=0.5)
    start = time.monotonic()
    try:
        with pytest.raises(RuntimeError, match="worker process 1 sent nothing for 0.5 seconds"):
            updater.update()
        assert time.monotonic() - start < 5
    finally:
        finalize_start = time.monotonic()
        updater.finalize()  # terminates the stalled worker after the grace period
        assert time.monotonic() - finalize_start < 5
    assert multiprocessing.active_children() == []
