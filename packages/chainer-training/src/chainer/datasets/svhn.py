"""The SVHN dataset of house-number digits (32x32 colour; 73257 train / 26032 test /
531131 extra).

The downloads are MATLAB files with ``X`` (32, 32, 3, N) uint8 and ``y`` (N, 1), where the
digit 0 has the label 10. Reading them needs SciPy (``pip install scipy``). Each split is
converted once and cached as ``<root>/pfnet/chainer/svhn/<split>.npz`` with ``x``
(N, 3, 32, 32) uint8 and ``y`` (N,) holding the digits 0 to 9.
"""

from __future__ import annotations

from typing import Any

import numpy

from chainer.datasets import _download, _preprocess

#: Where the ``.mat`` files are downloaded from.
BASE_URL = "http://ufldl.stanford.edu/housenumbers/"


def get_svhn(
    withlabel: bool = True,
    scale: float = 1.0,
    dtype: Any = None,
    label_dtype: Any = numpy.int32,
    add_extra: bool = False,
) -> tuple[Any, Any]:
    """Gets the SVHN dataset.

    Args:
        withlabel: Whether to return ``(image, label)`` pairs or the images only.
        scale: Pixel values are scaled to the interval ``[0, scale]``.
        dtype: The dtype of the images (``None``: ``chainer.config.dtype``).
        label_dtype: The dtype of the labels (the digits 0 to 9).
        add_extra: Whether to append the "extra" split to the training set.

    Returns:
        ``(train, test)``: :class:`~chainer.datasets.TupleDataset` objects of ``(3, 32, 32)``
        images and labels if ``withlabel``, else arrays of images.
    """
    scipy_io = _scipy_io()
    train = _retrieve("train", scipy_io)
    if add_extra:
        extra = _retrieve("extra", scipy_io)
        train = {key: numpy.concatenate([train[key], extra[key]]) for key in ("x", "y")}
    test = _retrieve("test", scipy_io)
    return tuple(
        _preprocess.with_labels(
            _preprocess.scale_images(raw["x"], dtype, scale), raw["y"], withlabel, label_dtype
        )
        for raw in (train, test)
    )


def _scipy_io():
    try:
        import scipy.io
    except ImportError as error:
        raise ImportError(
            f"get_svhn reads MATLAB files with SciPy, which is not installed: pip install scipy "
            f"(the import failed with: {error})"
        ) from error
    return scipy.io


def _retrieve(split: str, scipy_io) -> dict:
    def parse(path: str) -> dict:
        try:
            mat = scipy_io.loadmat(path)
        except (scipy_io.matlab.MatReadError, TypeError, IndexError) as error:
            raise ValueError(f"SciPy cannot read it: {error}") from error
        images, labels = mat.get("X"), mat.get("y")
        if images is None or labels is None or images.shape[:3] != (32, 32, 3):
            raise ValueError("expected the variables X of shape (32, 32, 3, N) and y")
        labels = labels.reshape(-1).astype(numpy.uint8) % 10  # 10 stands for the digit 0
        if len(labels) != images.shape[3]:
            raise ValueError(f"X holds {images.shape[3]} images but y {len(labels)} labels")
        x = numpy.ascontiguousarray(images.transpose(3, 2, 0, 1), dtype=numpy.uint8)
        return {"x": x, "y": labels}

    url = f"{BASE_URL}{split}_32x32.mat"
    return _download.cached_arrays(
        "pfnet/chainer/svhn",
        f"{split}.npz",
        lambda: _download.load_cached_download(url, parse, "SVHN MATLAB file"),
    )
