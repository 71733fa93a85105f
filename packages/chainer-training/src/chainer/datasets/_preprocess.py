"""Turning cached uint8 image arrays into what the ``get_*`` loaders return."""

from __future__ import annotations

from typing import Any

import numpy

import chainer
from chainer.datasets.tuple_dataset import TupleDataset


def scale_images(images: numpy.ndarray, dtype: Any, scale: float) -> numpy.ndarray:
    """Cast 8-bit images to ``dtype`` (``None``: ``chainer.config.dtype``) scaled to [0, scale]."""
    result = images.astype(chainer.get_dtype(dtype))
    result *= scale / 255.0
    return result


def with_labels(
    images: numpy.ndarray, labels: numpy.ndarray, withlabel: bool, label_dtype: Any
) -> Any:
    """Return ``TupleDataset(images, labels)``, or the images alone if not ``withlabel``."""
    if withlabel:
        return TupleDataset(images, labels.astype(label_dtype))
    return images
