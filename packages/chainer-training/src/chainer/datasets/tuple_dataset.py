"""``TupleDataset``: zip equal-length datasets into a dataset of tuples."""

from __future__ import annotations

from typing import Any

import numpy

_BATCH_INDEX = (slice, list, numpy.ndarray)


def _take(dataset: Any, index: Any) -> Any:
    """``dataset[index]``, also for a list or tuple dataset indexed by a list of indices."""
    if isinstance(dataset, (list, tuple)) and isinstance(index, (list, numpy.ndarray)):
        return [dataset[i] for i in index]
    return dataset[index]


class TupleDataset:
    """Dataset of tuples from multiple equal-length datasets.

    The ``i``-th example is ``(datasets[0][i], datasets[1][i], ...)``. Indexing by a slice, a
    list or an array of indices gives a list of such tuples; each dataset is indexed once
    with the whole index, so arrays are sliced in one operation (a list or tuple dataset is
    indexed element by element when the index is a list or an array).

    Args:
        datasets: The datasets (arrays, lists or dataset objects), all of the same length.

    Example:
        >>> dataset = TupleDataset([0, 1, 2], ['a', 'b', 'c'])
        >>> dataset[1]
        (1, 'b')
        >>> dataset[:2]
        [(0, 'a'), (1, 'b')]
    """

    def __init__(self, *datasets: Any) -> None:
        if not datasets:
            raise ValueError("TupleDataset needs at least one dataset")
        length = len(datasets[0])
        for i, dataset in enumerate(datasets):
            if len(dataset) != length:
                raise ValueError(
                    f"TupleDataset needs datasets of one length: dataset 0 has {length} "
                    f"examples but dataset {i} has {len(dataset)}"
                )
        self._datasets = datasets
        self._length = length

    def __getitem__(self, index: Any) -> Any:
        batches = [_take(dataset, index) for dataset in self._datasets]
        if isinstance(index, _BATCH_INDEX):
            return list(zip(*batches))
        return tuple(batches)

    def __len__(self) -> int:
        return self._length
