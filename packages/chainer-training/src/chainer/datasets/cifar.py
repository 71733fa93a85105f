"""The CIFAR-10 and CIFAR-100 datasets of 32x32 colour images (50000 train / 10000 test).

The downloads are the "python version" tarballs: pickled dicts (written by Python 2) with
``data``, a (10000, 3072) uint8 array of channel-major pixels, and the labels. They are
converted once and cached as ``<root>/pfnet/chainer/cifar/cifar-10.npz`` (or ``cifar-100``)
with ``train_x``, ``train_y``, ``test_x``, ``test_y``.
"""

from __future__ import annotations

import tarfile
from typing import Any

import numpy

from chainer.datasets import _download, _preprocess

#: Where the tarballs are downloaded from.
BASE_URL = "https://www.cs.toronto.edu/~kriz/"

# archive name, training members, test member, label key of the pickled dicts
_SOURCES = {
    "cifar-10": (
        "cifar-10-python.tar.gz",
        [f"cifar-10-batches-py/data_batch_{i}" for i in range(1, 6)],
        "cifar-10-batches-py/test_batch",
        b"labels",
    ),
    "cifar-100": (
        "cifar-100-python.tar.gz",
        ["cifar-100-python/train"],
        "cifar-100-python/test",
        b"fine_labels",
    ),
}


def get_cifar10(
    withlabel: bool = True, ndim: int = 3, scale: float = 1.0, dtype: Any = None
) -> tuple[Any, Any]:
    """Gets the CIFAR-10 dataset.

    Args:
        withlabel: Whether to return ``(image, label)`` pairs or the images only.
        ndim: The shape of each image: 3 gives ``(3, 32, 32)``, 1 gives ``(3072,)``.
        scale: Pixel values are scaled to the interval ``[0, scale]``.
        dtype: The dtype of the images (``None``: ``chainer.config.dtype``); labels are int32.

    Returns:
        ``(train, test)``: :class:`~chainer.datasets.TupleDataset` objects of images and labels
        if ``withlabel``, else arrays of images.
    """
    return _get_cifar("cifar-10", withlabel, ndim, scale, dtype)


def get_cifar100(
    withlabel: bool = True, ndim: int = 3, scale: float = 1.0, dtype: Any = None
) -> tuple[Any, Any]:
    """Gets the CIFAR-100 dataset (with the 100 fine labels).

    The arguments and the result are those of :func:`get_cifar10`.
    """
    return _get_cifar("cifar-100", withlabel, ndim, scale, dtype)


def _get_cifar(name: str, withlabel: bool, ndim: int, scale: float, dtype: Any):
    if ndim not in (1, 3):
        raise ValueError(f"invalid ndim for the CIFAR dataset: {ndim}; expected 1 or 3")
    raw = _download.cached_arrays("pfnet/chainer/cifar", f"{name}.npz", lambda: _convert(name))
    splits = []
    for split in ("train", "test"):
        images = raw[f"{split}_x"]
        if ndim == 3:
            images = images.reshape(-1, 3, 32, 32)
        images = _preprocess.scale_images(images, dtype, scale)
        splits.append(_preprocess.with_labels(images, raw[f"{split}_y"], withlabel, numpy.int32))
    return tuple(splits)


def _convert(name: str) -> dict:
    archive, train_members, test_member, label_key = _SOURCES[name]

    def parse(path: str) -> dict:
        with tarfile.open(path, "r:gz") as tar:
            train = [_read_batch(tar, member, label_key) for member in train_members]
            test_x, test_y = _read_batch(tar, test_member, label_key)
        return {
            "train_x": numpy.concatenate([x for x, _ in train]),
            "train_y": numpy.concatenate([y for _, y in train]),
            "test_x": test_x,
            "test_y": test_y,
        }

    return _download.load_cached_download(BASE_URL + archive, parse, f"{name} python tarball")


def _read_batch(tar: tarfile.TarFile, member: str, label_key: bytes):
    try:
        file = tar.extractfile(member)
    except KeyError:
        raise ValueError(f"the archive has no member {member!r}") from None
    if file is None:
        raise ValueError(f"the archive member {member!r} is not a file")
    with file:
        batch = _download.load_array_pickle(file)
    if not isinstance(batch, dict) or b"data" not in batch or label_key not in batch:
        raise ValueError(f"{member!r} should hold a dict with {b'data'!r} and {label_key!r}")
    try:
        images = numpy.asarray(batch[b"data"], dtype=numpy.uint8)
        labels = numpy.asarray(batch[label_key], dtype=numpy.uint8)
    except (TypeError, ValueError, OverflowError) as error:
        raise ValueError(f"{member!r} holds data that is not unsigned bytes: {error}") from error
    if images.ndim != 2 or images.shape[1] != 3072 or labels.shape != images.shape[:1]:
        raise ValueError(
            f"{member!r} holds data of shape {images.shape} and labels of shape "
            f"{labels.shape}; expected (N, 3072) and (N,)"
        )
    return images, labels
