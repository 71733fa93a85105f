"""ConcatenatedDataset and TransformDataset."""

import numpy
import pytest

from chainer.datasets import ConcatenatedDataset, TransformDataset


def test_concatenation_reads_through_in_order():
    parts = [numpy.arange(3), [], ["a", "b"], numpy.arange(10, 14)]
    dataset = ConcatenatedDataset(*parts)
    reference = [*range(3), "a", "b", *range(10, 14)]
    assert len(dataset) == len(reference)
    assert [dataset[i] for i in range(len(reference))] == reference
    assert dataset[-1] == 13 and dataset[-6] == "a"
    assert dataset[2:6] == reference[2:6]


def test_concatenation_index_errors():
    dataset = ConcatenatedDataset([1, 2], [3])
    for bad in (3, -4):
        with pytest.raises(IndexError, match=f"index {bad} is out of range for a "):
            dataset[bad]
    assert len(ConcatenatedDataset()) == 0


def test_transform_is_applied_on_every_access():
    calls = []

    def double(x):
        calls.append(x)
        return x * 2

    dataset = TransformDataset([1, 2, 3], double)
    assert len(dataset) == 3
    assert dataset[2] == 6
    assert dataset[:2] == [2, 4]
    assert dataset[2] == 6
    assert calls == [3, 1, 2, 3]
