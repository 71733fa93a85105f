"""The MNIST dataset of handwritten digits (28x28 grayscale, 60000 train / 10000 test)."""

from __future__ import annotations

from typing import Any

import numpy

from chainer.datasets import _mnist_helper

#: Where the IDX files are downloaded from (a mirror: the original site limits downloads).
BASE_URL = "https://ossci-datasets.s3.amazonaws.com/mnist/"
FILES = {
    "train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
    "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"),
}


def get_mnist(
    withlabel: bool = True,
    ndim: int = 1,
    scale: float = 1.0,
    dtype: Any = None,
    label_dtype: Any = numpy.int32,
    rgb_format: bool = False,
) -> tuple[Any, Any]:
    """Gets the MNIST dataset.

    The files are downloaded on first use and cached, converted, under
    ``<dataset root>/pfnet/chainer/mnist`` (see :func:`chainer.dataset.get_dataset_root`).

    Args:
        withlabel: Whether to return ``(image, label)`` pairs or the images only.
        ndim: The shape of each image: 1 gives ``(784,)``, 2 gives ``(28, 28)``, 3 gives
            ``(1, 28, 28)``.
        scale: Pixel values are scaled to the interval ``[0, scale]``.
        dtype: The dtype of the images (``None``: ``chainer.config.dtype``).
        label_dtype: The dtype of the labels.
        rgb_format: With ``ndim == 3``, repeat the channel to make ``(3, 28, 28)`` images.

    Returns:
        ``(train, test)``: :class:`~chainer.datasets.TupleDataset` objects of images and labels
        if ``withlabel``, else arrays of images.
    """
    return _mnist_helper.get_dataset(
        "MNIST",
        "pfnet/chainer/mnist",
        BASE_URL,
        FILES,
        withlabel,
        ndim,
        scale,
        dtype,
        label_dtype,
        rgb_format,
    )
