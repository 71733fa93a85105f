"""``dataset.concat(*others)``: the rows of several tabular datasets, one after another."""

from __future__ import annotations

from typing import Any

from chainer.dataset.tabular import _util
from chainer.dataset.tabular.tabular_dataset import TabularDataset


class Concat(TabularDataset):
    """Row-wise concatenation of tabular datasets with the same keys (mode of the first).

    A request is split into one ``get_examples`` call per dataset that holds requested rows
    (``None`` and slices stay ``None`` and slices). When the rows come from one dataset its
    columns are returned as they are; rows from several datasets are merged into lists.
    """

    def __init__(self, *datasets: TabularDataset) -> None:
        if not datasets:
            raise ValueError("concat needs at least one dataset")
        keys = tuple(datasets[0].keys)
        for dataset in datasets[1:]:
            if tuple(dataset.keys) != keys:
                raise ValueError(
                    f"concat needs datasets with the same keys, got {keys} and {dataset.keys}"
                )
        self._datasets = datasets

    def __len__(self) -> int:
        return sum(len(dataset) for dataset in self._datasets)

    @property
    def keys(self) -> tuple[str, ...]:
        return self._datasets[0].keys

    @property
    def mode(self) -> Any:
        return self._datasets[0].mode

    def convert(self, data: Any) -> Any:
        return self._datasets[0].convert(data)

    def get_examples(self, indices: Any, key_indices: Any) -> tuple:
        if indices is None:
            parts = [dataset.get_examples(None, key_indices) for dataset in self._datasets]
            return self._merge(parts, key_indices)
        if isinstance(indices, slice):
            return self._get_slice(indices, key_indices)
        return self._get_list(indices, key_indices)

    def _get_slice(self, indices: slice, key_indices: Any) -> tuple:
        start, stop, step = indices.indices(len(self))
        parts = []
        offset = 0
        for dataset in self._datasets:
            sub = _sub_slice(start - offset, stop - offset, step, len(dataset))
            if sub is not None:
                parts.append(dataset.get_examples(sub, key_indices))
            offset += len(dataset)
        if step < 0:
            parts.reverse()
        return self._merge(parts, key_indices)

    def _get_list(self, indices: Any, key_indices: Any) -> tuple:
        per_dataset: list[list[int]] = [[] for _ in self._datasets]
        positions = []  # (dataset, position in its request) of each requested row
        length = len(self)
        for index in indices:
            row = _util.row_index(index, length)
            for d, dataset in enumerate(self._datasets):
                if row < len(dataset):
                    positions.append((d, len(per_dataset[d])))
                    per_dataset[d].append(row)
                    break
                row -= len(dataset)
        parts = {
            d: self._datasets[d].get_examples(rows, key_indices)
            for d, rows in enumerate(per_dataset)
            if rows
        }
        if len(parts) <= 1:
            return self._merge(list(parts.values()), key_indices)
        n_columns = len(next(iter(parts.values())))
        return tuple([parts[d][column][i] for d, i in positions] for column in range(n_columns))

    def _merge(self, parts: list[tuple], key_indices: Any) -> tuple:
        if not parts:
            return _util.empty_columns(key_indices, len(self.keys))
        if len(parts) == 1:
            return parts[0]
        return tuple(
            [value for part in parts for value in part[column]] for column in range(len(parts[0]))
        )


def _sub_slice(start: int, stop: int, step: int, length: int) -> slice | None:
    """The part of ``range(start, stop, step)`` inside ``[0, length)`` as a slice, or None."""
    if step > 0:
        if start < 0:
            start %= step  # the first position at or after 0
        stop = min(stop, length)
    else:
        if start >= length:
            start = length - 1 + (start - length + 1) % step  # the first position below length
        stop = max(stop, -1)
    if len(range(start, stop, step)) == 0:
        return None
    return slice(start, stop if stop >= 0 else None, step)
