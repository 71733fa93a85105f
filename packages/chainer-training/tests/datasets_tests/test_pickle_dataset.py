"""PickleDataset and its writer."""

import io
import multiprocessing
import os
import pickle

import numpy
import pytest

from chainer.datasets import (
    PickleDataset,
    PickleDatasetWriter,
    open_pickle_dataset,
    open_pickle_dataset_writer,
)

EXAMPLES = [(numpy.arange(3) * i, f"label{i}") for i in range(5)] + [{"nested": [1, 2]}]


def _same(a, b):
    if isinstance(a, tuple):
        return all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, numpy.ndarray):
        return numpy.array_equal(a, b)
    return a == b


def test_round_trip_through_a_file(tmp_path):
    path = tmp_path / "data.pkl"
    with open_pickle_dataset_writer(path, protocol=4) as writer:
        for example in EXAMPLES:
            writer.write(example)
        writer.flush()
    with open_pickle_dataset(path) as dataset:
        assert len(dataset) == len(EXAMPLES)
        for i in (5, 0, 3, -1):
            assert _same(dataset[i], EXAMPLES[i])
        assert [d[1] for d in dataset[1:3]] == ["label1", "label2"]


def test_each_example_is_its_own_pickle(tmp_path):
    buffer = io.BytesIO()
    writer = PickleDatasetWriter(buffer)
    writer.write("a")
    writer.write(["b"])
    buffer.seek(0)
    assert pickle.load(buffer) == "a" and pickle.load(buffer) == ["b"]
    buffer.seek(0)
    assert PickleDataset(buffer)[1] == ["b"]


def test_index_errors():
    buffer = io.BytesIO(pickle.dumps(1))
    with pytest.raises(IndexError, match="index 1 is out of range for a PickleDataset of 1"):
        PickleDataset(buffer)[1]


def test_opened_dataset_survives_pickling(tmp_path):
    path = tmp_path / "data.pkl"
    with open_pickle_dataset_writer(path) as writer:
        for example in EXAMPLES:
            writer.write(example)
    dataset = open_pickle_dataset(path)
    dataset[2]
    clone = pickle.loads(pickle.dumps(dataset))
    assert _same(clone[4], EXAMPLES[4])
    dataset.close()
    clone.close()


def test_a_reader_is_read_from_its_start():
    buffer = io.BytesIO()
    writer = PickleDatasetWriter(buffer)
    writer.write("first")
    writer.write("second")
    writer.flush()  # the buffer is now positioned at its end
    assert PickleDataset(buffer)[:] == ["first", "second"]


class _ForkAwareReader:
    def __init__(self, buffer, pipe):
        self._buffer = buffer
        self._pipe = pipe

    def __getattr__(self, name):
        return getattr(self._buffer, name)

    def after_fork(self):
        self._pipe.send(os.getpid())


def test_after_fork_is_called_in_each_forked_child():
    buffer = io.BytesIO()
    PickleDatasetWriter(buffer).write(1)
    receiver, sender = multiprocessing.Pipe(duplex=False)
    dataset = PickleDataset(_ForkAwareReader(buffer, sender))
    child = multiprocessing.get_context("fork").Process()
    child.start()
    child.join()
    assert receiver.poll(10) and receiver.recv() == child.pid
    assert not receiver.poll(0)  # the parent itself does not call it
    assert dataset[0] == 1


def test_an_opened_dataset_reads_in_forked_workers(tmp_path):
    from chainer.iterators import MultiprocessIterator

    path = tmp_path / "data.pkl"
    with open_pickle_dataset_writer(path) as writer:
        for i in range(20):
            writer.write(i)
    with open_pickle_dataset(path) as dataset:
        iterator = MultiprocessIterator(dataset, 5, repeat=False, shuffle=False, n_processes=2)
        try:
            assert [x for batch in iterator for x in batch] == list(range(20))
        finally:
            iterator.finalize()
        assert dataset[7] == 7  # the parent's file is untouched by the workers


def test_the_reader_of_an_opened_dataset_reopens_after_fork(tmp_path):
    path = tmp_path / "data.pkl"
    with open_pickle_dataset_writer(path) as writer:
        writer.write("x")
    with open_pickle_dataset(path) as dataset:
        reader = dataset._reader
        inherited = reader._file
        reader.after_fork()
        assert inherited.closed and not reader._file.closed
        assert dataset[0] == "x"
