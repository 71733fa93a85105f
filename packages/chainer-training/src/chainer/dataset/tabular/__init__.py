"""Tabular datasets: tables of rows and named columns (:class:`TabularDataset`).

:func:`from_data` builds one from lists, arrays and functions; the dataset's methods derive
new ones (slices, concatenations, joins, transforms) that read through lazily.
"""

from chainer.dataset.tabular import delegate_dataset, tabular_dataset
from chainer.dataset.tabular.delegate_dataset import DelegateDataset
from chainer.dataset.tabular.from_data import from_data

__all__ = ["DelegateDataset", "delegate_dataset", "from_data", "tabular_dataset"]
