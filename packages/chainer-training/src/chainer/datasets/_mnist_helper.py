"""The IDX format of MNIST and its variants (Fashion-MNIST, Kuzushiji-MNIST).

Each split is two gzipped IDX files: images (magic 0x00000803: unsigned bytes, 3 dims
``count, rows, cols``, big-endian) and labels (0x00000801: 1 dim ``count``). They are parsed
once and cached as ``<root>/<dataset>/<split>.npz`` with ``x`` (count, rows * cols) and
``y`` (count,), both uint8.
"""

from __future__ import annotations

import gzip
import math
import struct
from typing import Any

import numpy

from chainer.datasets import _download, _preprocess

_UNSIGNED_BYTE = 0x08


def read_idx(path: str, ndim: int) -> numpy.ndarray:
    """Read a gzipped IDX file of unsigned bytes with ``ndim`` dimensions.

    The header is checked first and then exactly the data it announces is read, so a file
    that inflates to more (a gzip bomb) is refused after one byte more than announced.
    """
    header_size = 4 + 4 * ndim
    with gzip.open(path, "rb") as f:
        header = f.read(header_size)
        if len(header) < header_size:
            raise ValueError(f"the file has {len(header)} bytes, too short for an IDX header")
        zero, data_type, dims = struct.unpack(">HBB", header[:4])
        if zero != 0 or data_type != _UNSIGNED_BYTE or dims != ndim:
            raise ValueError(
                f"bad IDX magic number {header[:4].hex()}: expected unsigned bytes (0x08) in "
                f"{ndim} dimensions"
            )
        shape = struct.unpack(f">{ndim}I", header[4:])
        expected = math.prod(shape)
        data = bytearray()
        while len(data) <= expected:
            chunk = f.read(min(2**20, expected + 1 - len(data)))
            if not chunk:
                break
            data += chunk
    if len(data) != expected:
        held = f"{len(data)} bytes" if len(data) <= expected else "more bytes"
        raise ValueError(
            f"the header announces shape {shape} ({expected} bytes) but the file holds "
            f"{held} of data"
        )
    return numpy.frombuffer(data, numpy.uint8).reshape(shape)


def retrieve(dataset_name: str, split: str, base_url: str, files: tuple[str, str]) -> dict:
    """Return the cached ``x``/``y`` arrays of one split, downloading the IDX files once."""

    def create() -> dict:
        image_file, label_file = files
        images = _download.load_cached_download(
            base_url + image_file, lambda path: read_idx(path, 3), "gzipped IDX image file"
        )
        labels = _download.load_cached_download(
            base_url + label_file, lambda path: read_idx(path, 1), "gzipped IDX label file"
        )
        if len(images) != len(labels):
            raise ValueError(
                f"{image_file} holds {len(images)} images but {label_file} holds "
                f"{len(labels)} labels"
            )
        return {"x": images.reshape(len(images), -1), "y": labels}

    return _download.cached_arrays(dataset_name, f"{split}.npz", create)


def get_dataset(
    name: str,
    dataset_name: str,
    base_url: str,
    files: dict[str, tuple[str, str]],
    withlabel: bool,
    ndim: int,
    scale: float,
    dtype: Any,
    label_dtype: Any,
    rgb_format: bool,
) -> tuple[Any, Any]:
    """The ``get_mnist`` family: the train and test splits, preprocessed."""
    if ndim not in (1, 2, 3):
        raise ValueError(f"invalid ndim for the {name} dataset: {ndim}; expected 1, 2 or 3")
    return tuple(
        _preprocess_split(
            retrieve(dataset_name, split, base_url, files[split]),
            withlabel,
            ndim,
            scale,
            dtype,
            label_dtype,
            rgb_format,
        )
        for split in ("train", "test")
    )


def _preprocess_split(raw, withlabel, ndim, scale, dtype, label_dtype, rgb_format) -> Any:
    images = raw["x"]
    side = int(round(images.shape[1] ** 0.5))
    if ndim == 2:
        images = images.reshape(-1, side, side)
    elif ndim == 3:
        images = images.reshape(-1, 1, side, side)
        if rgb_format:
            images = numpy.broadcast_to(images, (len(images), 3, side, side))
    images = _preprocess.scale_images(images, dtype, scale)
    return _preprocess.with_labels(images, raw["y"], withlabel, label_dtype)
