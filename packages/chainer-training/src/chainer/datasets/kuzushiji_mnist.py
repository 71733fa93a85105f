"""The Kuzushiji-MNIST dataset of cursive Japanese hiragana (28x28, 60000 / 10000)."""

from __future__ import annotations

from typing import Any

import numpy

from chainer.datasets import _mnist_helper

#: Where the IDX files are downloaded from.
BASE_URL = "http://codh.rois.ac.jp/kmnist/dataset/kmnist/"
FILES = {
    "train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
    "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"),
}

# (romanization, character) of each class, in label order.
_LABELS = (
    ("o", "\u304a"),
    ("ki", "\u304d"),
    ("su", "\u3059"),
    ("tsu", "\u3064"),
    ("na", "\u306a"),
    ("ha", "\u306f"),
    ("ma", "\u307e"),
    ("ya", "\u3084"),
    ("re", "\u308c"),
    ("wo", "\u3092"),
)


def get_kuzushiji_mnist_labels() -> list[tuple[str, str]]:
    """Provides a list of labels for the Kuzushiji-MNIST dataset.

    Returns:
        One ``(romanization, hiragana character)`` pair per class, indexed by the label.
    """
    return list(_LABELS)


def get_kuzushiji_mnist(
    withlabel: bool = True,
    ndim: int = 1,
    scale: float = 1.0,
    dtype: Any = None,
    label_dtype: Any = numpy.int32,
    rgb_format: bool = False,
) -> tuple[Any, Any]:
    """Gets the Kuzushiji-MNIST dataset.

    The files are downloaded on first use and cached, converted, under
    ``<dataset root>/pfnet/chainer/kuzushiji_mnist``. The arguments and the result are those
    of :func:`chainer.datasets.get_mnist`; :func:`get_kuzushiji_mnist_labels` names the
    labels.
    """
    return _mnist_helper.get_dataset(
        "Kuzushiji-MNIST",
        "pfnet/chainer/kuzushiji_mnist",
        BASE_URL,
        FILES,
        withlabel,
        ndim,
        scale,
        dtype,
        label_dtype,
        rgb_format,
    )
