"""SubDataset and the split / cross-validation helpers."""

import numpy
import pytest

from chainer import datasets


def test_sub_dataset_with_and_without_order():
    base = list("abcdefgh")
    sub = datasets.SubDataset(base, 2, 5)
    assert len(sub) == 3 and sub[:] == ["c", "d", "e"] and sub[-1] == "e"
    order = [7, 6, 5, 4, 3, 2, 1, 0]
    ordered = datasets.SubDataset(base, 1, 4, order)
    assert ordered[:] == ["g", "f", "e"] and ordered[-3] == "g"
    with pytest.raises(IndexError, match="index 3 is out of range for a SubDataset of 3"):
        ordered[3]
    with pytest.raises(IndexError, match="index -4 is out of range"):
        ordered[-4]


def test_sub_dataset_argument_errors():
    with pytest.raises(ValueError, match=r"SubDataset \[0, 9\) overruns the base dataset of 8"):
        datasets.SubDataset(range(8), 0, 9)
    with pytest.raises(ValueError, match=r"len\(order\) = 2 while len\(dataset\) = 8"):
        datasets.SubDataset(range(8), 0, 2, [0, 1])


def test_split_dataset():
    first, second = datasets.split_dataset(list(range(5)), 2, order=[4, 3, 2, 1, 0])
    assert first[:] == [4, 3] and second[:] == [2, 1, 0]
    first, second = datasets.split_dataset(list(range(3)), numpy.int64(3))
    assert len(first) == 3 and len(second) == 0


def test_split_dataset_errors():
    with pytest.raises(TypeError, match="split_at must be an int, got float 1.5"):
        datasets.split_dataset([1, 2], 1.5)
    with pytest.raises(ValueError, match="split_at must be non-negative, got -1"):
        datasets.split_dataset([1, 2], -1)
    with pytest.raises(ValueError, match=r"split_at \(3\) exceeds the size of the dataset \(2\)"):
        datasets.split_dataset([1, 2], 3)


def test_random_splits_use_a_seeded_permutation():
    base = list(range(10))
    order = numpy.random.RandomState(7).permutation(10)
    first, second = datasets.split_dataset_random(base, 4, seed=7)
    assert first[:] == list(order[:4]) and second[:] == list(order[4:])
    parts = datasets.split_dataset_n_random(base, 3, seed=7)
    assert [p[:] for p in parts] == [list(order[0:3]), list(order[3:6]), list(order[6:9])]


def test_split_dataset_n_drops_the_remainder():
    parts = datasets.split_dataset_n(list(range(11)), 3)
    assert [p[:] for p in parts] == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    with pytest.raises(ValueError, match="n must be a positive int, got 0"):
        datasets.split_dataset_n([1], 0)


def _rotation_reference(n_examples, n_folds, order):
    """Chainer's documented algorithm: test on the last block, then rotate the order."""
    order = list(order)
    borders = [n_examples * i // n_folds for i in range(n_folds + 1)]
    sizes = [borders[i + 1] - borders[i] for i in range(n_folds)]
    splits = []
    for test_size in reversed(sizes):
        train_size = n_examples - test_size
        splits.append((order[:train_size], order[train_size:]))
        order = order[-test_size:] + order[:-test_size]
    return splits


@pytest.mark.parametrize(("n_examples", "n_folds"), [(10, 3), (7, 7), (5, 2), (9, 1)])
def test_cross_validation_matches_the_rotation_algorithm(n_examples, n_folds):
    order = list(numpy.random.RandomState(n_examples).permutation(n_examples))
    splits = datasets.get_cross_validation_datasets(list(range(n_examples)), n_folds, order)
    expected = _rotation_reference(n_examples, n_folds, order)
    assert [(train[:], test[:]) for train, test in splits] == expected
    tests = sorted(x for _, test in splits for x in test[:])
    assert tests == list(range(n_examples))  # test sets are disjoint and cover everything


def test_cross_validation_random_and_the_deprecated_n_fold():
    base = list(range(6))
    order = numpy.random.RandomState(3).permutation(6)
    splits = datasets.get_cross_validation_datasets_random(base, 2, seed=3)
    assert [(a[:], b[:]) for a, b in splits] == _rotation_reference(6, 2, order)
    with pytest.warns(DeprecationWarning, match="n_fold argument is deprecated; use n_folds"):
        old = datasets.get_cross_validation_datasets(base, n_fold=3)
    assert len(old) == 3


def test_cross_validation_argument_errors():
    with pytest.raises(TypeError, match="needs n_folds"):
        datasets.get_cross_validation_datasets([1, 2])
    with pytest.raises(ValueError, match="n_folds must be a positive int, got 0"):
        datasets.get_cross_validation_datasets([1, 2], 0)
    with pytest.raises(TypeError, match=r"unexpected keyword argument\(s\) \['folds'\]"):
        datasets.get_cross_validation_datasets([1, 2], 2, folds=2)
