"""``create_empty_dataset``: a dataset of empty tuples, as long as the given one."""

from __future__ import annotations


def create_empty_dataset(dataset) -> list:
    """``len(dataset)`` empty tuples: input for models whose data comes from other ranks.

    Example:
        >>> import chainermn
        >>> chainermn.datasets.create_empty_dataset([5, 6, 7])
        [(), (), ()]
    """
    return [()] * len(dataset)
