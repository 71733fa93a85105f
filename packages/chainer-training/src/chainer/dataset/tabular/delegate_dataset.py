"""``DelegateDataset``: a tabular dataset that forwards everything to another one."""

from __future__ import annotations

from typing import Any

from chainer.dataset.tabular.tabular_dataset import TabularDataset


class DelegateDataset(TabularDataset):
    """A helper class to implement a TabularDataset.

    It wraps a :class:`TabularDataset` and forwards its length, keys, mode, row access and
    conversion to it. Subclass it to give a composed dataset a class of its own.

    Args:
        dataset: The tabular dataset to forward to.

    Example:
        >>> from chainer.dataset import tabular
        >>> class Squares(tabular.DelegateDataset):
        ...     def __init__(self, n):
        ...         x = tabular.from_data(('x', list(range(n))))
        ...         super().__init__(x.transform(('x', 'y'), lambda x: (x, x * x)))
        >>> Squares(4)[3]
        (3, 9)
    """

    def __init__(self, dataset: TabularDataset) -> None:
        self.dataset = dataset

    def __len__(self) -> int:
        return len(self.dataset)

    @property
    def keys(self) -> tuple[str, ...]:
        return self.dataset.keys

    @property
    def mode(self) -> Any:
        return self.dataset.mode

    def get_examples(self, indices: Any, key_indices: Any) -> tuple:
        return self.dataset.get_examples(indices, key_indices)

    def convert(self, data: Any) -> Any:
        return self.dataset.convert(data)
