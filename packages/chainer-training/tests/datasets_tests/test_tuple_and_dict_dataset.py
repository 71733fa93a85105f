"""TupleDataset and DictDataset."""

import numpy
import pytest

from chainer.datasets import DictDataset, TupleDataset


def test_tuple_dataset_zips_examples():
    x = numpy.arange(12).reshape(4, 3)
    t = ["a", "b", "c", "d"]
    dataset = TupleDataset(x, t)
    assert len(dataset) == 4
    first, label = dataset[2]
    numpy.testing.assert_array_equal(first, x[2])
    assert label == "c"


@pytest.mark.parametrize("index", [slice(1, 3), [3, 0], slice(None, None, -1)])
def test_tuple_dataset_batches_are_lists_of_tuples(index):
    x, t = numpy.arange(4) * 10, list("abcd")
    batch = TupleDataset(x, t)[index]
    expected_rows = range(4)[index] if isinstance(index, slice) else index
    assert batch == [(x[i], t[i]) for i in expected_rows]


def test_tuple_dataset_with_an_index_array_on_arrays():
    dataset = TupleDataset(numpy.arange(5), numpy.arange(5) ** 2)
    assert dataset[numpy.array([4, 1])] == [(4, 16), (1, 1)]


def test_tuple_dataset_errors():
    with pytest.raises(ValueError, match="at least one dataset"):
        TupleDataset()
    with pytest.raises(ValueError, match="dataset 0 has 2 examples but dataset 1 has 3"):
        TupleDataset([1, 2], [1, 2, 3])


def test_dict_dataset():
    dataset = DictDataset(x=numpy.arange(3), y=["p", "q", "r"])
    assert len(dataset) == 3
    assert dataset[1] == {"x": 1, "y": "q"}
    assert dataset[::2] == [{"x": 0, "y": "p"}, {"x": 2, "y": "r"}]
    assert dataset[[2]] == [{"x": 2, "y": "r"}]


def test_dict_dataset_errors():
    with pytest.raises(ValueError, match="at least one dataset"):
        DictDataset()
    with pytest.raises(ValueError, match=r"one length, got \{'a': 1, 'b': 2\}"):
        DictDataset(a=[1], b=[1, 2])
