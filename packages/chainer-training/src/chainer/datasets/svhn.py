"""The SVHN dataset of house-number digits (32x32 colour; 73257 train / 26032 test /
531131 extra).

The downloads are MATLAB files with ``X`` (32, 32, 3, N) uint8 and ``y`` (N, 1), where the
digit 0 has the label 10. Reading them needs SciPy (``pip install scipy``). Each split is
converted once and cached as ``<root>/pfnet/chainer/svhn/<split>.npz`` with ``x``
(N, 3, 32, 32) uint8 and ``y`` (N,) holding the digits 0 to 9.
"""

from __future__ import annotations

import mmap
import struct
import zlib
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


# What SciPy's MATLAB reader raises for damaged files, besides its MatReadError (a damaged
# file can make it fail nearly anywhere in its parsing).
_MAT_ERRORS = (
    ValueError,
    TypeError,
    IndexError,
    KeyError,
    AttributeError,
    OverflowError,
    EOFError,
    MemoryError,
    NotImplementedError,
    OSError,
    UnicodeDecodeError,
    zlib.error,
    struct.error,
)


def _check_declared_sizes(scipy_io, path: str) -> None:
    """Refuse other formats than MATLAB 5 (what SVHN is distributed in), and data elements
    whose stated size does not fit in the element around them, before SciPy allocates it
    (SciPy reserves the stated size of an element before reading it: up to 4 GiB for a
    damaged size field)."""
    version = scipy_io.matlab.matfile_version(path)
    if version != (1, 0):  # MAT 4 files are parsed without checks, MAT 7.3 is HDF5
        raise ValueError(f"expected a MATLAB 5 file, found format version {version}")
    # Mapped, not read: the SVHN files are hundreds of megabytes.
    with open(path, "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
        order = "<" if data[126:128] == b"IM" else ">"
        _check_elements(data, 128, len(data), order, depth=0)


_MI_UINT32, _MI_MATRIX, _MI_COMPRESSED = 6, 14, 15
# The MATLAB 5 data types (8, 10 and 11 are reserved) and the numeric array classes
# (mxDOUBLE_CLASS 6 to mxUINT64_CLASS 15): SciPy's reader crashes on other values.
_MI_TYPES = {1, 2, 3, 4, 5, 6, 7, 9, 12, 13, 14, 15, 16, 17, 18}
_NUMERIC_CLASSES = range(6, 16)


def _check_elements(data: Any, start: int, end: int, order: str, depth: int) -> None:
    """Each MATLAB 5 data element in ``data[start:end]`` must have a known type and fit
    there; matrices must be numeric arrays, checked inside too, as are compressed elements.
    """
    if depth > 8:
        raise ValueError("MATLAB data elements nested too deep")
    position = start
    while position + 8 <= end:
        kind, size = struct.unpack(order + "II", data[position : position + 8])
        small = kind >> 16  # type and size in 4 bytes, data in the other 4
        kind, size = (kind & 0xFFFF, small) if small else (kind, size)
        if kind not in _MI_TYPES:
            raise ValueError(f"unknown MATLAB data type {kind} at byte {position}")
        if small:
            position += 8
            continue
        body = position + 8
        if size > end - body:
            raise ValueError(
                f"a data element at byte {position} states {size} bytes, but only "
                f"{end - body} follow"
            )
        if kind == _MI_MATRIX:
            _check_numeric_flags(data, body, body + size, order)
            _check_elements(data, body, body + size, order, depth + 1)
        elif kind == _MI_COMPRESSED and depth == 0:
            # zlib inflates at most about 1032 times: more is not a real compressed element.
            inflated = zlib.decompressobj().decompress(data[body : body + size], 1100 * size)
            _check_elements(inflated, 0, len(inflated), order, depth + 1)
        position = body + size + (-size % 8 if kind != _MI_COMPRESSED else 0)


def _check_numeric_flags(data: Any, start: int, end: int, order: str) -> None:
    # A matrix starts with its array flags: a uint32 element of 8 bytes, class in the low
    # byte, the complex/global/logical bits in the next one.
    if start + 16 > end:
        raise ValueError(f"the MATLAB array at byte {start} has no array flags")
    kind, size, flags = struct.unpack(order + "III", data[start : start + 12])
    if (kind, size) != (_MI_UINT32, 8):
        raise ValueError(f"the MATLAB array at byte {start} has no array flags")
    if flags & 0xFF not in _NUMERIC_CLASSES or flags & ~0x0EFF:
        raise ValueError(
            f"the MATLAB array at byte {start} has the flags {flags:#x}: expected a numeric "
            "array, as SVHN holds"
        )


def _retrieve(split: str, scipy_io) -> dict:
    def parse(path: str) -> dict:
        try:
            _check_declared_sizes(scipy_io, path)
            mat = scipy_io.loadmat(path, variable_names=("X", "y"))
        except (FileNotFoundError, PermissionError):
            raise
        except (scipy_io.matlab.MatReadError, *_MAT_ERRORS) as error:
            raise ValueError(f"SciPy cannot read it: {type(error).__name__}: {error}") from error
        images, labels = mat.get("X"), mat.get("y")
        if (
            not isinstance(images, numpy.ndarray)
            or not isinstance(labels, numpy.ndarray)
            or images.shape[:3] != (32, 32, 3)
            or images.ndim != 4
            or images.dtype.kind not in "biuf"
            or labels.dtype.kind not in "biuf"
        ):
            raise ValueError("expected the numeric variables X of shape (32, 32, 3, N) and y")
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
