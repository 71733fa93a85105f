"""``DatasetMixin``: integer, slice and index-list access built on one ``get_example``."""

from __future__ import annotations

from typing import Any

import numpy


class DatasetMixin:
    """Default implementation of dataset indexing.

    A subclass implements ``__len__`` and :meth:`get_example`; this mixin adds
    ``__getitem__`` so that the dataset can be indexed by an integer (one example), a slice or
    a list / 1-D integer array of indices (a list of examples), as iterators expect.

    Example:
        >>> class Squares(DatasetMixin):
        ...     def __len__(self):
        ...         return 10
        ...     def get_example(self, i):
        ...         return i * i
        >>> Squares()[2:5]
        [4, 9, 16]
    """

    def __getitem__(self, index: Any) -> Any:
        """Return one example, or a list of examples for a slice or a sequence of indices."""
        if isinstance(index, slice):
            return [self.get_example(i) for i in range(*index.indices(len(self)))]
        if isinstance(index, (list, numpy.ndarray)):
            return [self.get_example(i) for i in _as_index_list(index)]
        return self.get_example(index)

    def __len__(self) -> int:
        """Return the number of examples (subclasses must implement it)."""
        raise NotImplementedError(f"{type(self).__name__} must implement __len__")

    def get_example(self, i: int) -> Any:
        """Return the ``i``-th example (subclasses must implement it).

        Args:
            i: The index of the example.

        Returns:
            The example, of any type the dataset defines.
        """
        raise NotImplementedError(f"{type(self).__name__} must implement get_example")


def _as_index_list(index: list | numpy.ndarray) -> list:
    if isinstance(index, numpy.ndarray) and (index.ndim != 1 or index.dtype.kind not in "iu"):
        raise IndexError(
            "a dataset can be indexed by a 1-D integer array, got an array of shape "
            f"{index.shape} and dtype {index.dtype}"
        )
    return list(index)
