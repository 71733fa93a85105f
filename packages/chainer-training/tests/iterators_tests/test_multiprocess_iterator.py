"""MultiprocessIterator: workers, errors, crashes, clean shutdown, shared memory."""

import copy
import gc
import multiprocessing
import os
import pickle
import time

import numpy
import pytest

from chainer.iterators import MultiprocessIterator
from chainer.iterators._worker_pool import RemoteTraceback


class Examples:
    """Example i is (i-filled float32 array of shape (2, 3), {'id': i, 'pid': worker pid})."""

    def __init__(self, n, fail_at=None, exit_at=None, sleep=0.0):
        self.n = n
        self.fail_at = fail_at
        self.exit_at = exit_at
        self.sleep = sleep

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i == self.fail_at:
            raise KeyError(f"example {i} is broken")
        if i == self.exit_at:
            os._exit(3)
        time.sleep(self.sleep)
        return numpy.full((2, 3), i, numpy.float32), {"id": i, "pid": os.getpid()}


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _ids(batch):
    return [meta["id"] for _, meta in batch]


@pytest.fixture
def iterators():
    made = []

    def make(*args, **kwargs):
        made.append(MultiprocessIterator(*args, **kwargs))
        return made[-1]

    make.register = made.append
    yield make
    for it in made:
        it.finalize()
    assert multiprocessing.active_children() == []


def test_examples_come_back_intact(iterators):
    it = iterators(Examples(9), 4, shuffle=False, n_processes=3)
    for k in range(5):
        batch = it.next()
        assert _ids(batch) == [(4 * k + j) % 9 for j in range(4)]
        for array, meta in batch:
            assert array.dtype == numpy.float32 and array.shape == (2, 3)
            numpy.testing.assert_array_equal(array, meta["id"])
            assert meta["pid"] != os.getpid()
    assert it._loader._slot_bytes == 64  # after the first batch the arrays travel in shared memory


def test_examples_larger_than_shared_mem_are_sent_pickled(iterators):
    dataset = [(numpy.arange(i * 100, dtype=numpy.float64), [numpy.ones(2)] * 2) for i in range(6)]
    it = iterators(dataset, 3, shuffle=False, n_processes=2, shared_mem=400)
    for _ in range(2):
        for example in it.next():
            index = len(example[0]) // 100
            numpy.testing.assert_array_equal(example[0], dataset[index][0])
            assert isinstance(example[1], list) and len(example[1]) == 2


def test_a_dataset_error_is_raised_in_the_parent_and_the_batch_is_retried(iterators):
    dataset = Examples(8, fail_at=5)
    it = iterators(dataset, 3, shuffle=False, n_processes=2)
    assert _ids(it.next()) == [0, 1, 2]
    with pytest.raises(KeyError, match="example 5 is broken") as info:
        it.next()
    assert isinstance(info.value.__cause__, RemoteTraceback)
    assert "worker at the example 5:" in str(info.value.__cause__)
    assert (it.epoch_detail, it.current_position) == (3 / 8, 3)  # not advanced
    dataset.fail_at = None  # the workers were forked with the old value: it still fails
    with pytest.raises(KeyError):
        it.next()
    it.finalize()  # fresh workers see the repaired dataset
    assert _ids(it.next()) == [3, 4, 5]


def test_a_dying_worker_raises_instead_of_hanging(iterators):
    it = iterators(Examples(6, exit_at=4), 2, shuffle=False, n_processes=2, n_prefetch=1)
    assert _ids(it.next()) == [0, 1]
    start = time.monotonic()
    with pytest.raises(RuntimeError, match=r"worker process \(pid \d+\) died with exit code 3"):
        it.next()
        it.next()
    assert time.monotonic() - start < 5
    assert it.current_position in (2, 4)


def test_finalize_leaves_no_processes(iterators):
    it = iterators(Examples(40), 4, n_processes=2)
    pids = {meta["pid"] for _ in range(5) for _, meta in it.next()}
    assert len(pids) == 2 and all(_pid_alive(pid) for pid in pids)
    it.finalize()
    assert not any(_pid_alive(pid) for pid in pids)
    assert multiprocessing.active_children() == []
    it.finalize()  # idempotent
    assert len(it.next()) == 4  # and the iterator can go on
    with pytest.raises(NotImplementedError, match=r"reset\(\) after finalize\(\)"):
        it.reset()
    it.finalize()


def test_a_copy_continues_from_the_same_position_with_its_own_workers(iterators):
    it = iterators(Examples(5), 2, repeat=False, shuffle=False, n_processes=2)
    assert _ids(it.next()) == [0, 1]
    copied = copy.copy(it)
    iterators.register(copied)
    assert [_ids(it.next()) for _ in range(2)] == [[2, 3], [4]]
    with pytest.raises(StopIteration):
        it.next()
    assert [_ids(copied.next()) for _ in range(2)] == [[2, 3], [4]]
    with pytest.raises(StopIteration):
        copied.next()


def test_pickling_keeps_the_position(iterators):
    it = iterators(Examples(6), 2, shuffle=False, n_processes=2)
    it.next()
    it.next()
    restored = pickle.loads(pickle.dumps(it))
    iterators.register(restored)
    assert (restored.epoch_detail, restored.previous_epoch_detail) == (4 / 6, 2 / 6)
    assert _ids(restored.next()) == [4, 5] and restored.is_new_epoch


def test_garbage_collection_stops_the_workers():
    it = MultiprocessIterator(Examples(8), 4, n_processes=2)
    pids = {meta["pid"] for _, meta in it.next()}
    del it
    gc.collect()
    assert not any(_pid_alive(pid) for pid in pids)
    assert multiprocessing.active_children() == []


def test_maxtasksperchild_replaces_workers(iterators):
    it = iterators(Examples(12), 4, shuffle=False, n_processes=2, maxtasksperchild=1)
    seen = []
    for k in range(4):
        batch = it.next()
        assert _ids(batch) == [(4 * k + j) % 12 for j in range(4)]
        seen.append({meta["pid"] for _, meta in batch})
    assert all(not (a & b) for a, b in zip(seen, seen[1:]))  # every batch by fresh workers
    # Retired workers exit on their own schedule: wait (bounded) until they are reaped.
    deadline = time.monotonic() + 10
    while len(multiprocessing.active_children()) > 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(multiprocessing.active_children()) <= 4


def test_a_slow_dataset_triggers_the_timeout_warning(iterators):
    it = iterators(Examples(4, sleep=0.3), 2, n_processes=1, dataset_timeout=0.05)
    with pytest.warns(MultiprocessIterator.TimeoutWarning, match="took more than 0.05 seconds"):
        batch = it.next()
    assert len(batch) == 2


def test_unpicklable_examples_are_reported(iterators):
    it = iterators([lambda: None] * 2, 2, n_processes=1)
    with pytest.raises(Exception, match="(?i)pickle"):
        it.next()


def test_argument_errors():
    for kwargs, message in [
        ({"n_processes": 0}, "n_processes must be a positive int, got 0"),
        ({"n_prefetch": 0}, "n_prefetch must be a positive int, got 0"),
        ({"maxtasksperchild": 0}, "maxtasksperchild must be a positive int, got 0"),
        ({"shared_mem": -1}, "shared_mem must be None or a non-negative int, got -1"),
    ]:
        with pytest.raises(ValueError, match=message):
            MultiprocessIterator([1], 1, **kwargs)
