"""``ConcatenatedDataset``: several datasets read as one, one after another."""

from __future__ import annotations

import bisect
import itertools
import operator
from typing import Any

from chainer.dataset.dataset_mixin import DatasetMixin


class ConcatenatedDataset(DatasetMixin):
    """Dataset which concatenates some base datasets.

    The examples of ``datasets[0]`` come first, then those of ``datasets[1]``, and so on.
    Negative indices count from the end, as for lists.

    Args:
        datasets: The datasets to concatenate.

    Example:
        >>> dataset = ConcatenatedDataset([1, 2], [3])
        >>> len(dataset), dataset[2]
        (3, 3)
    """

    def __init__(self, *datasets: Any) -> None:
        self._datasets = datasets
        self._offsets = [0, *itertools.accumulate(len(dataset) for dataset in datasets)]

    def __len__(self) -> int:
        return self._offsets[-1]

    def get_example(self, i: int) -> Any:
        """Return the ``i``-th example of the concatenation."""
        index = operator.index(i)
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(
                f"index {i} is out of range for a ConcatenatedDataset of {len(self)} examples"
            )
        which = bisect.bisect_right(self._offsets, index) - 1
        return self._datasets[which][index - self._offsets[which]]
