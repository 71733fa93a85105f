"""Row and column selection shared by the tabular dataset implementations.

``get_examples(indices, key_indices)`` receives rows as ``None`` (every row), a ``slice`` or a
list of ints, and columns as ``None`` (every column) or a tuple of column indices. The views
pass these on in the same forms (``None`` stays ``None``, a slice stays a slice where it
can), so a user's ``get_examples`` can take fast paths for whole columns and slices.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

Rows = slice | list | None


def count_rows(indices: Rows, length: int) -> int:
    """Return how many rows ``indices`` selects from a table of ``length`` rows."""
    if indices is None:
        return length
    if isinstance(indices, slice):
        return len(range(length)[indices])
    return len(indices)


def row_index(index: Any, length: int) -> int:
    """Return ``index`` (an int, negative counting from the end) as a non-negative row."""
    row = operator.index(index)
    if not -length <= row < length:
        raise IndexError(f"row index {index} is out of range for a dataset of {length} rows")
    return row + length if row < 0 else row


def range_as_slice(rows: range) -> slice:
    """Return a slice that selects the same rows as ``rows`` (a range of non-negative ints)."""
    if len(rows) == 0:
        return slice(0, 0, 1)
    # A descending range that ends at row 0 stops at -1, which a slice reads as the last row.
    return slice(rows.start, rows.stop if rows.stop >= 0 else None, rows.step)


def compose_rows(outer: Rows, inner: Rows, length: int) -> Rows:
    """Return the rows of a table of ``length`` rows that ``inner`` picks from ``outer``.

    ``outer`` selects rows of the table; ``inner`` selects, by position, rows of that
    selection. ``None`` on either side means every row.
    """
    if inner is None:
        return outer
    if outer is None:
        return inner
    if isinstance(outer, slice):
        selected = range(length)[outer]
        if isinstance(inner, slice):
            return range_as_slice(selected[inner])
        return [selected[index] for index in inner]
    if isinstance(inner, slice):
        return outer[inner]
    return [outer[index] for index in inner]


def take(column: Any, indices: Rows) -> Any:
    """Return the selected rows of a list or array column (a list, or an array)."""
    if indices is None:
        return column
    if isinstance(indices, slice):
        return column[indices]
    if isinstance(column, list):
        return [column[index] for index in indices]
    return column[list(indices)]


def key_index(key: Any, keys: Sequence[str]) -> int:
    """Return the column index of ``key``: a key name, or an int (negative: from the end)."""
    if isinstance(key, str):
        try:
            return list(keys).index(key)
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


def compose_key_indices(outer: tuple | None, inner: tuple | None) -> tuple | None:
    """Return the columns that ``inner`` (positions in ``outer``) picks; ``None`` is all."""
    if inner is None:
        return outer
    if outer is None:
        return inner
    return tuple(outer[index] for index in inner)


def pack(values: Sequence, keys: Sequence[str], mode: Any) -> Any:
    """Present one example's (or the table's) column values in ``mode``.

    ``mode`` is ``tuple``, ``dict`` or ``None`` (unary: the single column's value).
    """
    if mode is tuple:
        return tuple(values)
    if mode is dict:
        return dict(zip(keys, values))
    return values[0]


def empty_columns(key_indices: tuple | None, n_keys: int) -> tuple:
    """Return one empty list per requested column (the result of selecting no rows)."""
    n_columns = n_keys if key_indices is None else len(key_indices)
    return tuple([] for _ in range(n_columns))
