"""chainer.datasets (shipped by the chainer-training distribution).

General datasets that combine, split or transform other datasets (:class:`TupleDataset`,
:class:`SubDataset`, :class:`TransformDataset`, ...), datasets over files (images, text,
pickles) and loaders of popular datasets that download and cache them
(:func:`get_mnist`, :func:`get_cifar10`, :func:`get_ptb_words`, ...).
"""

from chainer._training_distribution import check_core as _check_core

_check_core()

from chainer.datasets import (  # noqa: E402
    cifar,
    concatenated_dataset,
    dict_dataset,
    fashion_mnist,
    image_dataset,
    kuzushiji_mnist,
    mnist,
    pickle_dataset,
    ptb,
    sub_dataset,
    svhn,
    text_dataset,
    transform_dataset,
    tuple_dataset,
)
from chainer.datasets.cifar import get_cifar10, get_cifar100  # noqa: E402
from chainer.datasets.concatenated_dataset import ConcatenatedDataset  # noqa: E402
from chainer.datasets.dict_dataset import DictDataset  # noqa: E402
from chainer.datasets.fashion_mnist import (  # noqa: E402
    get_fashion_mnist,
    get_fashion_mnist_labels,
)
from chainer.datasets.image_dataset import (  # noqa: E402
    ImageDataset,
    LabeledImageDataset,
    LabeledZippedImageDataset,
    MultiZippedImageDataset,
    ZippedImageDataset,
)
from chainer.datasets.kuzushiji_mnist import (  # noqa: E402
    get_kuzushiji_mnist,
    get_kuzushiji_mnist_labels,
)
from chainer.datasets.mnist import get_mnist  # noqa: E402
from chainer.datasets.pickle_dataset import (  # noqa: E402
    PickleDataset,
    PickleDatasetWriter,
    open_pickle_dataset,
    open_pickle_dataset_writer,
)
from chainer.datasets.ptb import get_ptb_words, get_ptb_words_vocabulary  # noqa: E402
from chainer.datasets.sub_dataset import (  # noqa: E402
    SubDataset,
    get_cross_validation_datasets,
    get_cross_validation_datasets_random,
    split_dataset,
    split_dataset_n,
    split_dataset_n_random,
    split_dataset_random,
)
from chainer.datasets.svhn import get_svhn  # noqa: E402
from chainer.datasets.text_dataset import TextDataset  # noqa: E402
from chainer.datasets.transform_dataset import TransformDataset  # noqa: E402
from chainer.datasets.tuple_dataset import TupleDataset  # noqa: E402

__all__ = [
    "ConcatenatedDataset",
    "DictDataset",
    "ImageDataset",
    "LabeledImageDataset",
    "LabeledZippedImageDataset",
    "MultiZippedImageDataset",
    "PickleDataset",
    "PickleDatasetWriter",
    "SubDataset",
    "TextDataset",
    "TransformDataset",
    "TupleDataset",
    "ZippedImageDataset",
    "cifar",
    "concatenated_dataset",
    "dict_dataset",
    "fashion_mnist",
    "get_cifar10",
    "get_cifar100",
    "get_cross_validation_datasets",
    "get_cross_validation_datasets_random",
    "get_fashion_mnist",
    "get_fashion_mnist_labels",
    "get_kuzushiji_mnist",
    "get_kuzushiji_mnist_labels",
    "get_mnist",
    "get_ptb_words",
    "get_ptb_words_vocabulary",
    "get_svhn",
    "image_dataset",
    "kuzushiji_mnist",
    "mnist",
    "open_pickle_dataset",
    "open_pickle_dataset_writer",
    "pickle_dataset",
    "ptb",
    "split_dataset",
    "split_dataset_n",
    "split_dataset_n_random",
    "split_dataset_random",
    "sub_dataset",
    "svhn",
    "text_dataset",
    "transform_dataset",
    "tuple_dataset",
]
