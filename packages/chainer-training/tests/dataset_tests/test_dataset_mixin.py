"""DatasetMixin: indexing built on get_example."""

import numpy
import pytest

from chainer.dataset import DatasetMixin


class Squares(DatasetMixin):
    def __init__(self, n):
        self.n = n
        self.calls = []

    def __len__(self):
        return self.n

    def get_example(self, i):
        self.calls.append(i)
        return i * i


def test_integer_index_calls_get_example_once():
    dataset = Squares(5)
    assert dataset[3] == 9
    assert dataset.calls == [3]


@pytest.mark.parametrize(
    "index", [slice(1, 4), slice(None, None, -2), slice(-2, None), slice(10, 20)]
)
def test_slice_matches_list_slicing(index):
    assert Squares(6)[index] == [i * i for i in range(6)][index]


@pytest.mark.parametrize("index", [[4, 0, 4], numpy.array([2, 1]), numpy.array([], dtype=int)])
def test_index_sequence_gives_a_list(index):
    assert Squares(6)[index] == [int(i) * int(i) for i in index]


def test_multi_dimensional_or_float_index_array_is_rejected():
    with pytest.raises(IndexError, match=r"1-D integer array, got an array of shape \(2, 1\)"):
        Squares(3)[numpy.zeros((2, 1), dtype=int)]
    with pytest.raises(IndexError, match="dtype float64"):
        Squares(3)[numpy.zeros(2)]


def test_abstract_methods_name_the_class():
    class Empty(DatasetMixin):
        pass

    with pytest.raises(NotImplementedError, match="Empty must implement get_example"):
        Empty().get_example(0)
    with pytest.raises(NotImplementedError, match="Empty must implement __len__"):
        len(Empty())
