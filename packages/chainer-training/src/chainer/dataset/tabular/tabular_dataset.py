"""``TabularDataset``: a dataset of rows and named columns, fetched in bulk and composable."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy

from chainer import backend
from chainer.dataset.dataset_mixin import DatasetMixin
from chainer.dataset.tabular import _util


class TabularDataset(DatasetMixin):
    """An abstract class that represents tabular dataset.

    A tabular dataset is a table: ``len(dataset)`` rows, and columns named by :attr:`keys`.
    An example (a row) is presented according to :attr:`mode`: a tuple of the column values
    (``tuple``), a dict from key to value (``dict``), or the single column's value itself
    (``None``, unary mode, only with one column).

    A subclass implements ``__len__``, :attr:`keys`, :attr:`mode` and :meth:`get_examples`,
    which reads many rows and columns at once. On that base this class provides indexing,
    :meth:`fetch` (the whole table), :meth:`convert` (columns to arrays) and lazy operations
    that return new tabular datasets: :attr:`slice`, :meth:`concat`, :meth:`join`,
    :meth:`transform`, :meth:`transform_batch`, :meth:`astuple`, :meth:`asdict` and
    :meth:`with_converter`.

    Example:
        >>> from chainer.dataset import tabular
        >>> table = tabular.from_data({'x': list(range(6)), 'y': [i * i for i in range(6)]})
        >>> table[2]
        {'x': 2, 'y': 4}
        >>> table.convert(table.slice[1:3, 'y'].fetch())
        array([1, 4])
    """

    def __len__(self) -> int:
        """The number of rows."""
        raise NotImplementedError(f"{type(self).__name__} must implement __len__")

    @property
    def keys(self) -> tuple[str, ...]:
        """Names of the columns, a tuple of strings."""
        raise NotImplementedError(f"{type(self).__name__} must implement keys")

    @property
    def mode(self) -> Any:
        """How an example is presented: ``tuple``, ``dict``, or ``None`` (unary)."""
        raise NotImplementedError(f"{type(self).__name__} must implement mode")

    def get_examples(self, indices: Any, key_indices: Any) -> tuple:
        """Return a part of the table, column by column.

        Args:
            indices: The rows: ``None`` (every row), a slice, or a list of ints.
            key_indices: The columns: ``None`` (every column) or a tuple of column indices
                (in the requested order, possibly repeated).

        Returns:
            A tuple with one list or array per requested column, holding the requested rows.
        """
        raise NotImplementedError(f"{type(self).__name__} must implement get_examples")

    @property
    def slice(self) -> Any:
        """Lazy row and column selection: ``dataset.slice[rows]`` or ``dataset.slice[rows, keys]``.

        ``rows`` is a slice, a sequence of ints (negative ones count from the end) or a
        sequence of bools (a mask with one entry per row); ``keys`` is a key or column index
        (the result is unary) or a tuple of them (the result keeps the mode, unary becoming
        tuple). The result is a :class:`TabularDataset` that reads through to this one and
        converts with this dataset's :meth:`convert`.
        """
        from chainer.dataset.tabular._slice import SliceHelper

        return SliceHelper(self)

    def fetch(self) -> Any:
        """Return the whole table as it comes from :meth:`get_examples` (no conversion).

        Returns:
            A tuple, dict or single column (following :attr:`mode`) of the columns, lists or
            arrays as :meth:`get_examples` gives them; pass it to :meth:`convert` for arrays.
        """
        return _util.pack(self.get_examples(None, None), self.keys, self.mode)

    def convert(self, data: Any) -> Any:
        """Convert fetched columns (e.g. ``convert(fetch())``); by default to arrays.

        Args:
            data: A tuple, dict or single column (following :attr:`mode`) of lists or arrays.

        Returns:
            The same structure with every list turned into an array (arrays are kept).
        """
        if isinstance(data, tuple):
            return tuple(_as_array(column) for column in data)
        if isinstance(data, dict):
            return {key: _as_array(column) for key, column in data.items()}
        return _as_array(data)

    def astuple(self) -> TabularDataset:
        """Return a view of this dataset whose examples are tuples."""
        from chainer.dataset.tabular._wrappers import AsMode

        return AsMode(self, tuple)

    def asdict(self) -> TabularDataset:
        """Return a view of this dataset whose examples are dicts."""
        from chainer.dataset.tabular._wrappers import AsMode

        return AsMode(self, dict)

    def concat(self, *datasets: TabularDataset) -> TabularDataset:
        """Stack the rows of ``datasets`` after this dataset's rows (the keys must agree)."""
        from chainer.dataset.tabular._concat import Concat

        return Concat(self, *datasets)

    def join(self, *datasets: TabularDataset) -> TabularDataset:
        """Put the columns of ``datasets`` beside this dataset's (equal lengths, distinct keys)."""
        from chainer.dataset.tabular._join import Join

        return Join(self, *datasets)

    def transform(self, keys: str | tuple[str, ...], transform: Callable) -> TabularDataset:
        """Return a dataset whose examples are ``transform`` applied to this dataset's.

        Args:
            keys: The key, or tuple of keys, of the output columns.
            transform: Called per example with the values as positional arguments (tuple
                mode), keyword arguments (dict mode) or one argument (unary mode). It returns
                a tuple or dict of ``len(keys)`` values, or a single value for one key; that
                type sets the mode of the result.
        """
        from chainer.dataset.tabular._transform import Transform

        return Transform(self, keys, transform)

    def transform_batch(
        self, keys: str | tuple[str, ...], transform_batch: Callable
    ) -> TabularDataset:
        """Like :meth:`transform`, but called once per batch of rows with whole columns.

        Args:
            keys: The key, or tuple of keys, of the output columns.
            transform_batch: Called with the columns (lists or arrays) of the requested rows,
                passed as for :meth:`transform`; returns columns of the same length.
        """
        from chainer.dataset.tabular._transform import TransformBatch

        return TransformBatch(self, keys, transform_batch)

    def with_converter(self, converter: Callable) -> TabularDataset:
        """Return a view whose :meth:`convert` calls ``converter``.

        The converter receives the fetched columns as positional arguments (tuple mode),
        keyword arguments (dict mode) or one argument (unary mode).
        """
        from chainer.dataset.tabular._wrappers import WithConverter

        return WithConverter(self, converter)

    def get_example(self, i: int) -> Any:
        """Return row ``i`` as a tuple, dict or single value (following :attr:`mode`).

        It reads the row with ``get_examples([i], None)``.
        """
        columns = self.get_examples([i], None)
        return _util.pack([column[0] for column in columns], self.keys, self.mode)

    def __iter__(self) -> Iterator[Any]:
        """Iterate over the rows, each presented as :meth:`get_example` does."""
        return (self.get_example(i) for i in range(len(self)))


def _as_array(column: Any) -> Any:
    if isinstance(column, backend.get_array_types()):
        return column
    if len(column) > 0 and isinstance(column[0], backend.get_array_types()):
        device = backend.get_device_from_array(column[0])
        with backend.using_device(device):
            return device.xp.stack(column)
    return numpy.asarray(column)
