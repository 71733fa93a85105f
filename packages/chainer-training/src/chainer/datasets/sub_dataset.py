"""``SubDataset`` and the helpers that split a dataset for hold-out or cross validation."""

from __future__ import annotations

import operator
import warnings
from collections.abc import Sequence
from typing import Any

import numpy

from chainer.dataset.dataset_mixin import DatasetMixin


class SubDataset(DatasetMixin):
    """Subset of a base dataset.

    The subset holds the examples ``start`` to ``finish - 1`` of the base dataset, or, with
    ``order``, the examples ``order[start]`` to ``order[finish - 1]``. Nothing is copied.

    Args:
        dataset: The base dataset.
        start: The first index of the subset (inclusive).
        finish: The end of the subset (exclusive).
        order: A permutation of the base dataset's indices, of the same length as the base
            dataset, or ``None`` for the identity.

    Example:
        >>> sub = SubDataset(['a', 'b', 'c', 'd'], 1, 3, order=[3, 2, 1, 0])
        >>> list(sub[:])
        ['c', 'b']
    """

    def __init__(
        self, dataset: Any, start: int, finish: int, order: Sequence[int] | None = None
    ) -> None:
        if start < 0 or finish > len(dataset) or start > finish:
            raise ValueError(
                f"SubDataset [{start}, {finish}) overruns the base dataset of "
                f"{len(dataset)} examples"
            )
        if order is not None and len(order) != len(dataset):
            raise ValueError(
                "the order option must have the same length as the base dataset: "
                f"len(order) = {len(order)} while len(dataset) = {len(dataset)}"
            )
        self._dataset = dataset
        self._start = start
        self._finish = finish
        self._size = finish - start
        self._order = order

    def __len__(self) -> int:
        return self._size

    def get_example(self, i: int) -> Any:
        """Return the ``i``-th example of the subset (negative ``i`` counts from the end)."""
        index = operator.index(i)
        if not -self._size <= index < self._size:
            raise IndexError(
                f"index {i} is out of range for a SubDataset of {self._size} examples"
            )
        index = (self._start if index >= 0 else self._finish) + index
        if self._order is not None:
            index = self._order[index]
        return self._dataset[index]


def split_dataset(
    dataset: Any, split_at: int, order: Sequence[int] | None = None
) -> tuple[SubDataset, SubDataset]:
    """Splits a dataset into two subsets.

    Args:
        dataset: The dataset to split.
        split_at: The size of the first subset (the position of the split).
        order: A permutation of the dataset's indices that decides which examples go to
            which subset (``None``: the identity).

    Returns:
        The subsets ``[0, split_at)`` and ``[split_at, len(dataset))`` (taken in ``order``).
    """
    if isinstance(split_at, bool) or not isinstance(split_at, (int, numpy.integer)):
        raise TypeError(f"split_at must be an int, got {type(split_at).__name__} {split_at!r}")
    n_examples = len(dataset)
    if split_at < 0:
        raise ValueError(f"split_at must be non-negative, got {split_at}")
    if split_at > n_examples:
        raise ValueError(f"split_at ({split_at}) exceeds the size of the dataset ({n_examples})")
    first = SubDataset(dataset, 0, int(split_at), order)
    second = SubDataset(dataset, int(split_at), n_examples, order)
    return first, second


def split_dataset_random(
    dataset: Any, first_size: int, seed: int | None = None
) -> tuple[SubDataset, SubDataset]:
    """Splits a dataset into two subsets randomly.

    Args:
        dataset: The dataset to split.
        first_size: The size of the first subset.
        seed: Seed of ``numpy.random.RandomState`` drawing the permutation (``None``: fresh
            entropy).

    Returns:
        Two :class:`SubDataset` objects of ``first_size`` and ``len(dataset) - first_size``
        examples.
    """
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return split_dataset(dataset, first_size, order)


def split_dataset_n(dataset: Any, n: int, order: Sequence[int] | None = None) -> list:
    """Splits a dataset into ``n`` subsets.

    Every subset has ``len(dataset) // n`` examples: subset ``i`` holds the examples
    ``order[i * size:(i + 1) * size]``, and the last ``len(dataset) % n`` examples are left out.

    Args:
        dataset: The dataset to split.
        n: The number of subsets.
        order: A permutation of the dataset's indices (``None``: the identity).

    Returns:
        A list of ``n`` :class:`SubDataset` objects.
    """
    size = len(dataset) // _positive("n", n)
    return [SubDataset(dataset, size * i, size * (i + 1), order) for i in range(n)]


def split_dataset_n_random(dataset: Any, n: int, seed: int | None = None) -> list:
    """Splits a dataset into ``n`` subsets randomly (see :func:`split_dataset_n`).

    Args:
        dataset: The dataset to split.
        n: The number of subsets.
        seed: Seed of ``numpy.random.RandomState`` drawing the permutation.

    Returns:
        A list of ``n`` :class:`SubDataset` objects.
    """
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return split_dataset_n(dataset, n, order)


def get_cross_validation_datasets(
    dataset: Any, n_folds: int | None = None, order: Sequence[int] | None = None, **kwargs: Any
) -> list[tuple[SubDataset, SubDataset]]:
    """Creates a set of training/test splits for cross validation.

    The indices (in ``order``) are cut into ``n_folds`` consecutive blocks whose sizes differ
    by at most one (block ``k`` is ``[len * k // n_folds, len * (k + 1) // n_folds)``). Split
    ``i`` tests on block ``n_folds - 1 - i`` and trains on the blocks after it followed by
    the blocks before it, so the test sets are disjoint and together cover the dataset.

    Args:
        dataset: The dataset to split.
        n_folds: The number of splits.
        order: A permutation of the dataset's indices (``None``: the identity).
        kwargs: Only the deprecated ``n_fold``, an old name of ``n_folds``.

    Returns:
        A list of ``n_folds`` ``(train, test)`` pairs of :class:`SubDataset` objects.
    """
    if "n_fold" in kwargs:
        warnings.warn(
            "the n_fold argument is deprecated; use n_folds instead", DeprecationWarning, 2
        )
        n_folds = kwargs.pop("n_fold")
    if kwargs:
        raise TypeError(
            f"get_cross_validation_datasets() got unexpected keyword argument(s) {sorted(kwargs)}"
        )
    if n_folds is None:
        raise TypeError("get_cross_validation_datasets() needs n_folds")
    n_folds = _positive("n_folds", n_folds)
    whole = len(dataset)
    order = numpy.arange(whole) if order is None else numpy.asarray(order)
    borders = [whole * k // n_folds for k in range(n_folds + 1)]
    splits = []
    for i in range(n_folds):
        low, high = borders[n_folds - 1 - i], borders[n_folds - i]
        split_order = numpy.concatenate([order[high:], order[:low], order[low:high]])
        splits.append(split_dataset(dataset, whole - (high - low), split_order))
    return splits


def get_cross_validation_datasets_random(
    dataset: Any, n_folds: int, seed: int | None = None, **kwargs: Any
) -> list[tuple[SubDataset, SubDataset]]:
    """Creates a set of training/test splits for cross validation randomly.

    The same as :func:`get_cross_validation_datasets` with a random ``order`` drawn by
    ``numpy.random.RandomState(seed)``.

    Args:
        dataset: The dataset to split.
        n_folds: The number of splits.
        seed: The seed of the permutation.
        kwargs: Only the deprecated ``n_fold``, an old name of ``n_folds``.

    Returns:
        A list of ``n_folds`` ``(train, test)`` pairs of :class:`SubDataset` objects.
    """
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return get_cross_validation_datasets(dataset, n_folds, order, **kwargs)


def _positive(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, numpy.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive int, got {value!r}")
    return int(value)
