"""The Fashion-MNIST dataset of clothing images (28x28 grayscale, 60000 train / 10000 test)."""

from __future__ import annotations

from typing import Any

import numpy

from chainer.datasets import _mnist_helper

#: Where the IDX files are downloaded from.
BASE_URL = "http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/"
FILES = {
    "train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
    "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"),
}

_LABELS = (
    "T-shirt/top",
    "Trouser",
    "Pullover",
    "Dress",
    "Coat",
    "Sandal",
    "Shirt",
    "Sneaker",
    "Bag",
    "Ankle boot",
)


def get_fashion_mnist_labels() -> list[str]:
    """Provide a list of the string value names of the labels.

    Returns:
        The name of each class, indexed by the label value.
    """
    return list(_LABELS)


def get_fashion_mnist(
    withlabel: bool = True,
    ndim: int = 1,
    scale: float = 1.0,
    dtype: Any = None,
    label_dtype: Any = numpy.int32,
    rgb_format: bool = False,
) -> tuple[Any, Any]:
    """Gets the Fashion-MNIST dataset.

    The files are downloaded on first use and cached, converted, under
    ``<dataset root>/pfnet/chainer/fashion-mnist``. The arguments and the result are those
    of :func:`chainer.datasets.get_mnist`; :func:`get_fashion_mnist_labels` names the labels.
    """
    return _mnist_helper.get_dataset(
        "Fashion-MNIST",
        "pfnet/chainer/fashion-mnist",
        BASE_URL,
        FILES,
        withlabel,
        ndim,
        scale,
        dtype,
        label_dtype,
        rgb_format,
    )
