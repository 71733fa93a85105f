"""``TransformDataset``: a dataset whose examples go through a function when read."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chainer.dataset.dataset_mixin import DatasetMixin


class TransformDataset(DatasetMixin):
    """Dataset that indexes the base dataset and transforms the data.

    The ``i``-th example is ``transform(dataset[i])``, computed on every access (so random
    data augmentation gives a new result each time).

    Args:
        dataset: The base dataset.
        transform: A function taking one example of ``dataset`` and returning the new one.

    Example:
        >>> dataset = TransformDataset([0, 1, 2, 3], lambda x: x * 10)
        >>> dataset[3]
        30
    """

    def __init__(self, dataset: Any, transform: Callable[[Any], Any]) -> None:
        self._dataset = dataset
        self._transform = transform

    def __len__(self) -> int:
        return len(self._dataset)

    def get_example(self, i: int) -> Any:
        """Return ``transform(dataset[i])``."""
        return self._transform(self._dataset[i])
