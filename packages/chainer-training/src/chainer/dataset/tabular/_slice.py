"""``dataset.slice[rows, keys]``: a lazy row/column selection of a tabular dataset."""

from __future__ import annotations

from typing import Any

import numpy

from chainer.dataset.tabular import _util
from chainer.dataset.tabular.tabular_dataset import TabularDataset


class SliceHelper:
    """The object behind :attr:`TabularDataset.slice`; indexing it makes a :class:`Slice`."""

    def __init__(self, dataset: TabularDataset) -> None:
        self._dataset = dataset

    def __getitem__(self, args: Any) -> Slice:
        if isinstance(args, tuple):
            if len(args) != 2:
                raise IndexError(
                    f"dataset.slice takes [rows] or [rows, keys], got {len(args)} indices"
                )
            rows, keys = args
        else:
            rows, keys = args, None
        return Slice(self._dataset, rows, keys)


class Slice(TabularDataset):
    """The rows and columns of ``dataset`` picked by ``rows`` and ``keys``."""

    def __init__(self, dataset: TabularDataset, rows: Any, keys: Any) -> None:
        self._dataset = dataset
        self._rows = _as_selection(rows, len(dataset))
        if keys is None:
            self._key_indices = tuple(range(len(dataset.keys)))
            self._mode = dataset.mode
        elif isinstance(keys, (tuple, list)):
            self._key_indices = tuple(_util.key_index(key, dataset.keys) for key in keys)
            self._mode = dataset.mode if dataset.mode is not None else tuple
        else:
            self._key_indices = (_util.key_index(keys, dataset.keys),)
            self._mode = None

    def __len__(self) -> int:
        return len(self._rows)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(self._dataset.keys[i] for i in self._key_indices)

    @property
    def mode(self) -> Any:
        return self._mode

    def get_examples(self, indices: Any, key_indices: Any) -> tuple:
        rows = _util.select(self._rows, indices)
        if key_indices is None:
            keys = self._key_indices
        else:
            keys = tuple(self._key_indices[k] for k in key_indices)
        return self._dataset.get_examples(_util.as_query(rows), keys)


def _as_selection(rows: Any, length: int) -> _util.Rows:
    if isinstance(rows, slice):
        return range(length)[rows]
    if isinstance(rows, (list, numpy.ndarray)):
        array = numpy.asarray(rows)
        if array.dtype == bool:
            if array.shape != (length,):
                raise IndexError(
                    f"a boolean row mask must have one entry per row ({length}), got shape "
                    f"{array.shape}"
                )
            return numpy.flatnonzero(array).tolist()
        if array.size == 0:
            return []
        return _util.as_rows(array, length)
    raise TypeError(
        "dataset.slice selects rows by a slice, a list of ints or a list of bools, got "
        f"{type(rows).__name__} {rows!r}"
    )
