"""``dataset.join(*others)``: the columns of several tabular datasets, side by side."""

from __future__ import annotations

from typing import Any

from chainer.dataset.tabular import _util
from chainer.dataset.tabular.tabular_dataset import TabularDataset


class Join(TabularDataset):
    """Column-wise join of tabular datasets of equal length and distinct keys.

    The mode is the first dataset's; a unary first dataset gives tuple mode when the join
    has more than one column.
    """

    def __init__(self, *datasets: TabularDataset) -> None:
        if not datasets:
            raise ValueError("join needs at least one dataset")
        length = len(datasets[0])
        self._sources: list[tuple[int, int]] = []  # column -> (dataset, its column index)
        keys: list[str] = []
        for d, dataset in enumerate(datasets):
            if len(dataset) != length:
                raise ValueError(
                    f"join needs datasets of the same length, got {length} and {len(dataset)} "
                    f"rows (dataset {d})"
                )
            for k, key in enumerate(dataset.keys):
                if key in keys:
                    raise ValueError(f"join needs distinct keys, but {key!r} appears twice")
                keys.append(key)
                self._sources.append((d, k))
        self._datasets = datasets
        self._keys = tuple(keys)
        mode = datasets[0].mode
        self._mode = tuple if mode is None and len(keys) > 1 else mode

    def __len__(self) -> int:
        return len(self._datasets[0])

    @property
    def keys(self) -> tuple[str, ...]:
        return self._keys

    @property
    def mode(self) -> Any:
        return self._mode

    def get_examples(self, indices: Any, key_indices: Any) -> tuple:
        wanted = _util.as_key_indices(key_indices, len(self._keys))
        per_dataset: dict[int, list[int]] = {}
        for column in wanted:
            d, k = self._sources[column]
            if k not in per_dataset.setdefault(d, []):
                per_dataset[d].append(k)
        fetched = {
            d: dict(zip(ks, self._datasets[d].get_examples(indices, tuple(ks))))
            for d, ks in per_dataset.items()
        }
        return tuple(fetched[d][k] for d, k in (self._sources[column] for column in wanted))
