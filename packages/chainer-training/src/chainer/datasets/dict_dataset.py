"""``DictDataset``: combine equal-length datasets into a dataset of dicts."""

from __future__ import annotations

from typing import Any

from chainer.datasets.tuple_dataset import _BATCH_INDEX, _take


class DictDataset:
    """Dataset of a dictionary of datasets.

    The ``i``-th example is ``{key: datasets[key][i], ...}``. Indexing by a slice, a list or
    an array of indices gives a list of such dicts.

    Args:
        datasets: The datasets (arrays, lists or dataset objects) as keyword arguments, all
            of the same length.

    Example:
        >>> dataset = DictDataset(x=[0, 1, 2], y=['a', 'b', 'c'])
        >>> dataset[1]
        {'x': 1, 'y': 'b'}
    """

    def __init__(self, **datasets: Any) -> None:
        if not datasets:
            raise ValueError("DictDataset needs at least one dataset")
        lengths = {key: len(dataset) for key, dataset in datasets.items()}
        if len(set(lengths.values())) > 1:
            raise ValueError(f"DictDataset needs datasets of one length, got {lengths}")
        self._datasets = datasets
        self._length = next(iter(lengths.values()))

    def __getitem__(self, index: Any) -> Any:
        batches = {key: _take(dataset, index) for key, dataset in self._datasets.items()}
        if isinstance(index, _BATCH_INDEX):
            keys = list(batches)
            return [dict(zip(keys, values)) for values in zip(*batches.values())]
        return batches

    def __len__(self) -> int:
        return self._length
