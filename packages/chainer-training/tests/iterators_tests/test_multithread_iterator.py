"""MultithreadIterator: reading in threads, errors, shutdown."""

import threading

import numpy
import pytest

from chainer.iterators import MultithreadIterator


class Recording:
    def __init__(self, n, fail_at=None):
        self.n = n
        self.fail_at = fail_at
        self.threads = set()

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        self.threads.add(threading.current_thread().name)
        if i == self.fail_at:
            raise IndexError(f"cannot read {i}")
        return i


def test_examples_are_read_by_the_pool_threads():
    dataset = Recording(6)
    it = MultithreadIterator(dataset, 3, shuffle=False, n_threads=3)
    assert it.next() == [0, 1, 2]
    assert all(name.startswith("MultithreadIterator") for name in dataset.threads)
    it.finalize()
    assert not any(t.name.startswith("MultithreadIterator") for t in threading.enumerate())


def test_an_error_is_raised_and_the_batch_is_retried():
    dataset = Recording(6, fail_at=4)
    it = MultithreadIterator(dataset, 3, shuffle=False)
    assert it.next() == [0, 1, 2]
    with pytest.raises(IndexError, match="cannot read 4"):
        it.next()
    assert it.current_position == 3
    dataset.fail_at = None
    assert it.next() == [3, 4, 5]
    it.finalize()


def test_n_threads_must_be_positive():
    with pytest.raises(ValueError, match="n_threads must be a positive int, got 0"):
        MultithreadIterator(numpy.arange(2), 1, n_threads=0)
