"""``from_data``: a tabular dataset over lists, arrays and functions of the row index."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from chainer import backend
from chainer.dataset.tabular import _util
from chainer.dataset.tabular.tabular_dataset import TabularDataset

# Unnamed columns get keys unique in the process, so that datasets made from unnamed data can
# be joined.
_unnamed_keys = (f"_{n}" for n in itertools.count())


def from_data(data: Any, *, size: int | None = None) -> TabularDataset:
    """Create a TabularDataset from lists/arrays/callables.

    A column is a list, an array (rows along the first axis) or a callable that takes a row
    index and returns that row's value. A callable may also provide several columns: give it
    a tuple of keys and return a tuple (in key order) or a dict from those keys. Columns are
    given as:

    * one column, or a ``(key, column)`` pair: a unary dataset (an unnamed column gets a
      generated key, unique in the process);
    * a ``(keys, callable)`` pair with a tuple of keys: its mode is the type the callable
      returns (``tuple`` or ``dict``);
    * a tuple of columns or of ``(key, column)`` / ``(keys, callable)`` pairs: a tuple-mode
      dataset;
    * a dict from key (or tuple of keys, for a callable) to column: a dict-mode dataset.

    A list column is read as a list, an array column as an array, a callable as a list.

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
        return _Columns([_column(value, key) for key, value in data.items()], dict, size)
    if isinstance(data, tuple) and not _is_keyed(data):
        return _Columns([_column(item) for item in data], tuple, size)
    column = _column(data)
    return _Columns([column], None if len(column.keys) == 1 else _CALLABLE_MODE, size)


_CALLABLE_MODE = object()  # the mode is the type the only (multi-key) callable returns


def _is_keyed(item: Any) -> bool:
    if not (isinstance(item, tuple) and len(item) == 2):
        return False
    key = item[0]
    return isinstance(key, str) or (
        isinstance(key, tuple) and len(key) > 0 and all(isinstance(k, str) for k in key)
    )


class _Column:
    """One list, array or callable with the key(s) of the column(s) it provides."""

    def __init__(self, keys: tuple[str, ...], source: Any) -> None:
        self.keys = keys
        self.source = source

    def length(self) -> int | None:
        return None if callable(self.source) else len(self.source)

    def read(self, indices: _util.Rows, length: int) -> tuple:
        """Return the requested rows of each of this column's keys."""
        if not callable(self.source):
            return (_util.take(self.source, indices),)
        if indices is None:
            rows: Sequence[int] = range(length)
        elif isinstance(indices, slice):
            rows = range(length)[indices]
        else:
            rows = [_util.row_index(index, length) for index in indices]
        values = [self.source(row) for row in rows]
        if len(self.keys) == 1:
            return (values,)
        return tuple([_part(value, k, key) for value in values] for k, key in enumerate(self.keys))


def _part(value: Any, position: int, key: str) -> Any:
    if isinstance(value, dict):
        return value[key]
    if isinstance(value, tuple):
        return value[position]
    raise TypeError(
        f"a callable column with several keys must return a tuple or a dict, got "
        f"{type(value).__name__}"
    )


def _column(item: Any, key: Any = None) -> _Column:
    if key is None and _is_keyed(item):
        key, item = item
    if isinstance(key, tuple):
        if not callable(item):
            raise TypeError(
                f"from_data: only a callable can provide several columns {key}, got "
                f"{type(item).__name__}"
            )
        return _Column(key, item)
    if key is None:
        if callable(item):
            raise ValueError("from_data: a callable column needs a key: pass (key, callable)")
        key = next(_unnamed_keys)
    if not isinstance(key, str):
        raise TypeError(f"from_data: a key must be a str or a tuple of str, got {key!r}")
    if not (callable(item) or isinstance(item, backend.get_array_types())):
        if not isinstance(item, Sequence) or isinstance(item, (str, bytes, tuple)):
            raise TypeError(
                f"from_data: the column {key!r} must be a list, an array or a callable, got "
                f"{type(item).__name__}"
            )
    return _Column((key,), item)


class _Columns(TabularDataset):
    def __init__(self, columns: list[_Column], mode: Any, size: int | None) -> None:
        if not columns:
            raise ValueError("from_data needs at least one column")
        keys = [key for column in columns for key in column.keys]
        for key in keys:
            if keys.count(key) > 1:
                raise ValueError(f"from_data: the key {key!r} appears more than once")
        self._keys = tuple(keys)
        self._columns = columns
        # The dataset column index of each key: (column, position among its keys).
        self._sources = [
            (c, k) for c, column in enumerate(columns) for k in range(len(column.keys))
        ]
        self._length = _common_length(columns, size)
        self._mode = mode

    def __len__(self) -> int:
        return self._length

    @property
    def keys(self) -> tuple[str, ...]:
        return self._keys

    @property
    def mode(self) -> Any:
        if self._mode is _CALLABLE_MODE:
            first = self._columns[0].source(0) if self._length > 0 else ()
            self._mode = dict if isinstance(first, dict) else tuple
        return self._mode

    def get_examples(self, indices: Any, key_indices: Any) -> tuple:
        wanted = range(len(self._keys)) if key_indices is None else key_indices
        read: dict[int, tuple] = {}
        result = []
        for key_index in wanted:
            c, k = self._sources[key_index]
            if c not in read:
                read[c] = self._columns[c].read(indices, self._length)
            result.append(read[c][k])
        return tuple(result)


def _common_length(columns: list[_Column], size: int | None) -> int:
    lengths = {column.keys[0]: column.length() for column in columns}
    lengths = {key: length for key, length in lengths.items() if length is not None}
    if size is not None:
        lengths = {"size": size, **lengths}
    if not lengths:
        raise ValueError("from_data: size must be given when every column is a callable")
    if len(set(lengths.values())) > 1:
        raise ValueError(f"from_data: the columns have different lengths {lengths}")
    return next(iter(lengths.values()))
