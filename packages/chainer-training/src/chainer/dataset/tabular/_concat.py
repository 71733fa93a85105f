"""``dataset.concat(*others)``: the rows of several tabular datasets, one after another."""

from __future__ import annotations

import bisect
import itertools
from typing import Any

from chainer.dataset.tabular import _util
from chainer.dataset.tabular.tabular_dataset import TabularDataset


class Concat(TabularDataset):
    """Row-wise concatenation of tabular datasets with the same keys (mode of the first)."""

    def __init__(self, *datasets: TabularDataset) -> None:
        if not datasets:
            raise ValueError("concat needs at least one dataset")
        keys = datasets[0].keys
        for dataset in datasets[1:]:
            if dataset.keys != keys:
                raise ValueError(
                    f"concat needs datasets with the same keys, got {keys} and {dataset.keys}"
                )
        self._datasets = datasets
        self._offsets = [0, *itertools.accumulate(len(dataset) for dataset in datasets)]

    def __len__(self) -> int:
        return self._offsets[-1]

    @property
    def keys(self) -> tuple[str, ...]:
        return self._datasets[0].keys

    @property
    def mode(self) -> Any:
        return self._datasets[0].mode

    def get_examples(self, indices: Any, key_indices: Any) -> tuple:
        if indices is None:
            parts = [dataset.get_examples(None, key_indices) for dataset in self._datasets]
        else:
            runs = self._runs(_util.as_rows(indices, len(self)))
            parts = [self._datasets[d].get_examples(rows, key_indices) for d, rows in runs]
            if not parts:
                parts = [self._datasets[0].get_examples([], key_indices)]
        return tuple(_util.concat_columns(columns) for columns in zip(*parts))

    def _runs(self, rows: _util.Rows) -> list[tuple[int, list[int]]]:
        # Consecutive rows of one dataset are read with a single get_examples call.
        runs: list[tuple[int, list[int]]] = []
        for row in rows:
            d = bisect.bisect_right(self._offsets, row) - 1
            if not runs or runs[-1][0] != d:
                runs.append((d, []))
            runs[-1][1].append(row - self._offsets[d])
        return runs
