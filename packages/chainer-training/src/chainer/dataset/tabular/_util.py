"""Row and column selection shared by the tabular dataset implementations.

Inside the package a row selection is a ``range`` (from ``None`` or a slice) or a list of
non-negative ints; :func:`as_query` turns it back into the ``slice`` / list form that
:meth:`TabularDataset.get_examples` accepts.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy

from chainer import backend

Rows = range | list


def as_rows(indices: Any, length: int) -> Rows:
    """Normalize ``get_examples``'s ``indices`` (None, slice or ints) for ``length`` rows."""
    if indices is None:
        return range(length)
    if isinstance(indices, slice):
        return range(length)[indices]
    if isinstance(indices, numpy.ndarray):
        if indices.ndim != 1 or indices.dtype.kind not in "iu":
            raise IndexError(
                f"row indices must be a 1-D integer array, got shape {indices.shape} and "
                f"dtype {indices.dtype}"
            )
        indices = indices.tolist()
    rows = []
    for index in indices:
        row = operator.index(index)
        if row < 0:
            row += length
        if not 0 <= row < length:
            raise IndexError(f"row index {index} is out of range for a dataset of {length} rows")
        rows.append(row)
    return rows


def as_query(rows: Rows) -> slice | list:
    """Return ``rows`` in the form ``get_examples`` takes (a ``range`` becomes a slice)."""
    if isinstance(rows, range):
        # A descending range that ends at row 0 has stop -1, which a slice would read as
        # "the last row"; None means the same as the range.
        return slice(rows.start, rows.stop if rows.stop >= 0 else None, rows.step)
    return rows


def select(rows: Rows, query: Any) -> Rows:
    """Compose: the rows of ``rows`` that ``query`` (indices relative to ``rows``) picks."""
    relative = as_rows(query, len(rows))
    if isinstance(relative, range):
        return rows[as_query(relative)]
    return [rows[i] for i in relative]


def take(column: Any, rows: Rows) -> Any:
    """Return the given rows of a list or array column (a list or an array)."""
    if isinstance(rows, range):
        return column[as_query(rows)]
    if isinstance(column, numpy.ndarray):
        return column[numpy.asarray(rows, dtype=numpy.intp)]
    if isinstance(column, backend.get_array_types()):
        return column[rows]
    return [column[i] for i in rows]


def key_index(key: Any, keys: Sequence[str]) -> int:
    """Return the column index of ``key``: a key name, or an int (negative: from the end)."""
    if isinstance(key, str):
        try:
            return keys.index(key)
        except ValueError:
            raise KeyError(f"no column named {key!r}; the keys are {tuple(keys)}") from None
    try:
        index = operator.index(key)
    except TypeError:
        raise TypeError(
            f"a column is selected by its key (str) or position (int), got "
            f"{type(key).__name__} {key!r}"
        ) from None
    if not -len(keys) <= index < len(keys):
        raise IndexError(f"column index {key} is out of range for {len(keys)} columns")
    return index % len(keys)


def as_key_indices(key_indices: Any, n_keys: int) -> tuple[int, ...]:
    """Normalize ``get_examples``'s ``key_indices`` (None means every column)."""
    if key_indices is None:
        return tuple(range(n_keys))
    return tuple(key_indices)


def pack(values: Sequence, keys: Sequence[str], mode: Any) -> Any:
    """Present one example's column values in ``mode`` (tuple, dict or None for unary)."""
    if mode is tuple:
        return tuple(values)
    if mode is dict:
        return dict(zip(keys, values))
    return values[0]


def concat_columns(parts: Sequence[Any]) -> Any:
    """Concatenate pieces of one column: arrays of one type give an array, else a list."""
    first = parts[0]
    if all(type(part) is type(first) for part in parts) and isinstance(
        first, backend.get_array_types()
    ):
        xp = backend.get_array_module(first)
        return xp.concatenate(parts)
    return [value for part in parts for value in part]
