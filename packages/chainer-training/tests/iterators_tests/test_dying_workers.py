"""MultiprocessIterator when a worker is SIGKILLed, raises, or hangs: a clear error in the
main process within a bounded time, the shared memory released, no process left behind."""

import multiprocessing
import os
import pathlib
import signal
import time
import warnings

import numpy
import pytest

from chainer.iterators import MultiprocessIterator, _shared_memory


class Stalling:
    """Examples are (i-filled array, i). Example ``at`` stalls ``sleep`` seconds, writing the
    worker's pid to ``marker`` first; with ``once``, only while ``marker`` does not exist."""

    def __init__(self, marker, at, sleep, once=False, fail=False):
        self.marker, self.at, self.sleep, self.once, self.fail = marker, at, sleep, once, fail

    def __len__(self):
        return 8

    def __getitem__(self, i):
        if i == self.at and not (self.once and os.path.exists(self.marker)):
            if self.fail:
                raise ValueError(f"example {i} cannot be read")
            with open(self.marker, "w") as f:
                f.write(str(os.getpid()))
            time.sleep(self.sleep)
        return numpy.full(1000, i, numpy.float32), i


@pytest.fixture
def blocks(monkeypatch):
    """The names of the shared memory blocks the iterators create."""
    names = []
    create = _shared_memory.create_block

    def recording(size):
        block = create(size)
        if block is not None:
            names.append(block.name)
        return block

    monkeypatch.setattr(_shared_memory, "create_block", recording)
    return names


def _assert_released(names):
    assert names, "the test meant to use shared memory"
    assert [n for n in names if os.path.exists(f"/dev/shm/{n.lstrip('/')}")] == []
    assert multiprocessing.active_children() == []


def _wait_for(path, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not os.path.exists(path) or not pathlib.Path(path).read_text():
        assert time.monotonic() < deadline, f"{path} did not appear"
        time.sleep(0.01)
    return int(pathlib.Path(path).read_text())


def _iterator(dataset, **kwargs):
    return MultiprocessIterator(
        dataset,
        4,
        repeat=False,
        shuffle=False,
        n_processes=2,
        n_prefetch=1,
        shared_mem=8192,
        **kwargs,
    )


def test_a_sigkilled_worker_fails_the_batch_at_once_and_the_retry_succeeds(tmp_path, blocks):
    marker = str(tmp_path / "pid")
    iterator = _iterator(Stalling(marker, at=5, sleep=60, once=True), dataset_timeout=None)
    try:
        assert [i for _, i in iterator.next()] == [0, 1, 2, 3]  # batch 4..7 is prefetched
        os.kill(_wait_for(marker), signal.SIGKILL)
        start = time.monotonic()
        with pytest.raises(
            RuntimeError, match=r"worker process \(pid \d+\) died with exit code -9"
        ):
            iterator.next()
        assert time.monotonic() - start < 5
        # A new worker replaced the dead one: training can go on from the same batch.
        assert [i for _, i in iterator.next()] == [4, 5, 6, 7]
    finally:
        iterator.finalize()
    _assert_released(blocks)


def test_a_raising_worker_fails_the_batch_with_its_error(tmp_path, blocks):
    iterator = _iterator(Stalling(str(tmp_path / "pid"), at=2, sleep=0, fail=True))
    try:
        with pytest.raises(ValueError, match="example 2 cannot be read"):
            iterator.next()
    finally:
        iterator.finalize()
    _assert_released(blocks)


def test_a_hanging_dataset_is_an_error_after_dataset_timeout_when_asked(tmp_path, blocks):
    iterator = _iterator(Stalling(str(tmp_path / "pid"), at=6, sleep=3600), dataset_timeout=0.5)
    try:
        iterator.next()
        start = time.monotonic()
        with warnings.catch_warnings():
            # The documented way to make the stall warning an error (v7's API warns).
            warnings.simplefilter("error", MultiprocessIterator.TimeoutWarning)
            with pytest.raises(MultiprocessIterator.TimeoutWarning, match="more than 0.5 sec"):
                iterator.next()
        assert time.monotonic() - start < 5
    finally:
        start = time.monotonic()
        iterator.finalize()  # terminates the stalled worker
        assert time.monotonic() - start < 5
    _assert_released(blocks)
