"""chainer.dataset (shipped by the chainer-training distribution).

The dataset abstraction: :class:`DatasetMixin` and :class:`TabularDataset` (datasets),
:class:`Iterator` (the iterator interface), the batch converters (:func:`concat_examples`,
:class:`ConcatWithAsyncTransfer`, :func:`converter`, :func:`to_device`) and the download
cache behind the concrete datasets (:func:`get_dataset_root`, :func:`cached_download`, ...).
"""

from chainer._training_distribution import check_core as _check_core

_check_core()

from chainer.dataset import convert, dataset_mixin, download, iterator, tabular  # noqa: E402
from chainer.dataset.convert import (  # noqa: E402
    ConcatWithAsyncTransfer,
    Converter,
    concat_examples,
    converter,
    to_device,
)
from chainer.dataset.dataset_mixin import DatasetMixin  # noqa: E402
from chainer.dataset.download import (  # noqa: E402
    cache_or_load_file,
    cached_download,
    get_dataset_directory,
    get_dataset_root,
    set_dataset_root,
)
from chainer.dataset.iterator import Iterator  # noqa: E402
from chainer.dataset.tabular.tabular_dataset import TabularDataset  # noqa: E402

__all__ = [
    "ConcatWithAsyncTransfer",
    "Converter",
    "DatasetMixin",
    "Iterator",
    "TabularDataset",
    "cache_or_load_file",
    "cached_download",
    "concat_examples",
    "convert",
    "converter",
    "dataset_mixin",
    "download",
    "get_dataset_directory",
    "get_dataset_root",
    "iterator",
    "set_dataset_root",
    "tabular",
    "to_device",
]
