"""``dataset.join(*others)``: the columns of several tabular datasets, side by side."""

from __future__ import annotations

from typing import Any

from chainer.dataset.tabular.tabular_dataset import TabularDataset


class Join(TabularDataset):
    """Column-wise join of tabular datasets of equal length and distinct keys.

    The mode is that of the first dataset that is not unary (``tuple`` when all are); the
    first dataset's :meth:`convert` converts. Each dataset is asked only for its requested
    columns (``None`` when every column is requested), once per request.
    """

    def __init__(self, *datasets: TabularDataset) -> None:
        if not datasets:
            raise ValueError("join needs at least one dataset")
        length = len(datasets[0])
        keys: list[str] = []
        for d, dataset in enumerate(datasets):
            if len(dataset) != length:
                raise ValueError(
                    f"join needs datasets of the same length, got {length} and {len(dataset)} "
                    f"rows (dataset {d})"
                )
            for key in dataset.keys:
                if key in keys:
                    raise ValueError(f"join needs distinct keys, but {key!r} appears twice")
                keys.append(key)
        self._datasets = datasets
        self._keys = tuple(keys)

    def __len__(self) -> int:
        return len(self._datasets[0])

    @property
    def keys(self) -> tuple[str, ...]:
        return self._keys

    @property
    def mode(self) -> Any:
        for dataset in self._datasets:
            if dataset.mode is not None:
                return dataset.mode
        return tuple

    def convert(self, data: Any) -> Any:
        return self._datasets[0].convert(data)

    def get_examples(self, indices: Any, key_indices: Any) -> tuple:
        if key_indices is None:
            return tuple(
                column
                for dataset in self._datasets
                for column in dataset.get_examples(indices, None)
            )
        for key_index in key_indices:
            if not 0 <= key_index < len(self._keys):
                raise IndexError(
                    f"column index {key_index} is out of range for {len(self._keys)} columns"
                )
        fetched: dict[int, Any] = {}
        offset = 0
        for dataset in self._datasets:
            n_keys = len(dataset.keys)
            wanted: list[int] = []
            for key_index in key_indices:
                local = key_index - offset
                if 0 <= local < n_keys and local not in wanted:
                    wanted.append(local)
            if wanted:
                columns = dataset.get_examples(indices, tuple(wanted))
                for local, column in zip(wanted, columns):
                    fetched[offset + local] = column
            offset += n_keys
        return tuple(fetched[key_index] for key_index in key_indices)
