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
    """The rows and columns of ``dataset`` picked by ``rows`` and ``keys``.

    ``get_examples`` forwards ``None`` and slices as they are, so the wrapped dataset sees
    the simplest form of the request.
    """

    def __init__(self, dataset: TabularDataset, rows: Any, keys: Any) -> None:
        self._dataset = dataset
        self._rows = _as_rows(rows, len(dataset))
        if keys is None:
            self._key_indices = None
            self._mode = dataset.mode
        elif isinstance(keys, (tuple, list)):
            self._key_indices = tuple(_util.key_index(key, dataset.keys) for key in keys)
            self._mode = dataset.mode or tuple
        else:
            self._key_indices = (_util.key_index(keys, dataset.keys),)
            self._mode = None

    def __len__(self) -> int:
        return _util.count_rows(self._rows, len(self._dataset))

    @property
    def keys(self) -> tuple[str, ...]:
        keys = tuple(self._dataset.keys)
        if self._key_indices is None:
            return keys
        return tuple(keys[index] for index in self._key_indices)

    @property
    def mode(self) -> Any:
        return self._mode

    def get_examples(self, indices: Any, key_indices: Any) -> tuple:
        rows = _util.compose_rows(self._rows, indices, len(self._dataset))
        columns = _util.compose_key_indices(self._key_indices, key_indices)
        return self._dataset.get_examples(rows, columns)

    def convert(self, data: Any) -> Any:
        return self._dataset.convert(data)


def _as_rows(rows: Any, length: int) -> _util.Rows:
    """Check a row selection: a slice stays, a mask or ints become a list of rows."""
    if isinstance(rows, slice):
        return rows
    if not isinstance(rows, (list, tuple, range, numpy.ndarray)):
        raise TypeError(
            "dataset.slice selects rows by a slice, a sequence of ints or a sequence of bools, "
            f"got {type(rows).__name__} {rows!r}"
        )
    if isinstance(rows, numpy.ndarray):
        rows = rows.tolist()
    if len(rows) > 0 and all(isinstance(row, (bool, numpy.bool_)) for row in rows):
        if len(rows) != length:
            raise ValueError(
                f"a boolean row mask must have one entry per row ({length}), got {len(rows)}"
            )
        return [i for i, selected in enumerate(rows) if selected]
    return [_util.row_index(row, length) for row in rows]
