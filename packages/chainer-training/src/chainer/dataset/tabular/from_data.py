"""``from_data``: a tabular dataset over lists, arrays and functions of the row index."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chainer import backend
from chainer.dataset.tabular import _util
from chainer.dataset.tabular.tabular_dataset import TabularDataset


def from_data(data: Any, *, size: int | None = None) -> TabularDataset:
    """Create a TabularDataset from lists/arrays/callables.

    A column is a list, an array (rows along the first axis) or a callable that takes a row
    index and returns that row's value. Columns are given as:

    * one column, or a ``(key, column)`` pair: a unary dataset (key ``'_0'`` when unnamed);
    * a tuple of columns or of ``(key, column)`` pairs: a tuple-mode dataset (unnamed
      columns get the keys ``'_0'``, ``'_1'``, ... by position);
    * a dict from key to column: a dict-mode dataset.

    Args:
        data: The columns, as above.
        size: The number of rows. Required when every column is a callable; otherwise it
            must agree with the columns' length when given.

    Returns:
        A :class:`TabularDataset` reading the columns lazily.

    Example:
        >>> table = from_data((('a', [0, 1, 2]), ('b', lambda i: i * i)))
        >>> table.keys
        ('a', 'b')
        >>> table[2]
        (2, 4)
    """
    if isinstance(data, dict):
        return _Columns(list(data.items()), dict, size)
    if isinstance(data, tuple) and not _is_named_column(data):
        named = [
            item if _is_named_column(item) else (f"_{i}", item) for i, item in enumerate(data)
        ]
        return _Columns(named, tuple, size)
    return _Columns([data if _is_named_column(data) else ("_0", data)], None, size)


def _is_named_column(item: Any) -> bool:
    return isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)


class _Columns(TabularDataset):
    def __init__(self, named_columns: list[tuple[str, Any]], mode: Any, size: int | None):
        if not named_columns:
            raise ValueError("from_data needs at least one column")
        keys = [key for key, _ in named_columns]
        for key in keys:
            if not isinstance(key, str):
                raise TypeError(f"from_data: a key must be a str, got {key!r}")
            if keys.count(key) > 1:
                raise ValueError(f"from_data: the key {key!r} appears more than once")
        for key, column in named_columns:
            _check_column(key, column)
        self._keys = tuple(keys)
        self._columns = [column for _, column in named_columns]
        self._mode = mode
        self._length = _common_length(named_columns, size)

    def __len__(self) -> int:
        return self._length

    @property
    def keys(self) -> tuple[str, ...]:
        return self._keys

    @property
    def mode(self) -> Any:
        return self._mode

    def get_examples(self, indices: Any, key_indices: Any) -> tuple:
        rows = _util.as_rows(indices, self._length)
        return tuple(
            _read(self._columns[k], rows)
            for k in _util.as_key_indices(key_indices, len(self._keys))
        )


def _read(column: Any, rows: _util.Rows) -> Any:
    if callable(column):
        return [column(row) for row in rows]
    return _util.take(column, rows)


def _check_column(key: str, column: Any) -> None:
    if callable(column) or isinstance(column, backend.get_array_types()):
        return
    if isinstance(column, Sequence) and not isinstance(column, (str, bytes, tuple)):
        return
    raise TypeError(
        f"from_data: the column {key!r} must be a list, an array or a callable, got "
        f"{type(column).__name__}"
    )


def _common_length(named_columns: list[tuple[str, Any]], size: int | None) -> int:
    lengths = {key: len(column) for key, column in named_columns if not callable(column)}
    if size is not None:
        lengths = {"size": size, **lengths}
    if not lengths:
        raise ValueError("from_data: size must be given when every column is a callable")
    if len(set(lengths.values())) > 1:
        raise ValueError(f"from_data: the columns have different lengths {lengths}")
    return next(iter(lengths.values()))
