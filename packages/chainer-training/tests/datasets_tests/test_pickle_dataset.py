"""PickleDataset and its writer."""

import io
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
