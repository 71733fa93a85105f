"""``create_empty_dataset``: a dataset of empty tuples, as long as the given one."""

from __future__ import annotations


def create_empty_dataset(dataset) -> list:
    """``len(dataset)`` empty tuples: input for models whose data comes from other ranks.

    Example:
        >>> chainermn.datasets.create_empty_dataset([5, 6, 7])  # doctest: +SKIP
        [(), (), ()]
    """
    return [()] * len(dataset)
