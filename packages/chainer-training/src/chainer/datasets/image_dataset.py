"""Datasets of image files: plain files, zip archives, with or without labels.

Images are read with Pillow, which is not a dependency of chainer-training: install it
(``pip install pillow``) to use these classes. Each image is returned as an array of shape
``(channels, height, width)`` in the requested dtype (``chainer.config.dtype`` by default),
with the pixel values unchanged (0 to 255 for 8-bit images); a grayscale image has one
channel, and an alpha channel is kept. ``available`` tells whether Pillow is installed.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import importlib.util
import itertools
import operator
import os
import struct
import zlib
from collections.abc import Sequence
from typing import Any

import numpy

import chainer
from chainer.dataset.dataset_mixin import DatasetMixin
from chainer.datasets import _zip_archive
from chainer.datasets._process_local import ProcessLocal

#: Whether Pillow, which these datasets read images with, is installed (found without
#: importing it).
available: bool = importlib.util.find_spec("PIL") is not None


def _pillow_image_module(user: str):
    try:
        from PIL import Image
    except ImportError as error:
        raise ImportError(
            f"{user} reads images with Pillow, which is not installed: pip install pillow "
            f"(the import failed with: {error})"
        ) from error
    return Image


def _read_image(source: Any, dtype: numpy.dtype, name: str) -> numpy.ndarray:
    """Read an image file (a path or a binary file object) as a (C, H, W) array.

    Raises:
        OSError: The file is not an image Pillow reads, or is damaged (the message names
            ``name``); a file that is missing or cannot be opened raises as :func:`open` does.
    """
    image_module = _pillow_image_module("reading images")
    try:
        with contextlib.ExitStack() as stack:
            if isinstance(source, (str, os.PathLike)):
                source = _ChunkedReads(stack.enter_context(open(source, "rb")))
            image = stack.enter_context(image_module.open(source))
            array = numpy.asarray(image, dtype=dtype)
    except (FileNotFoundError, PermissionError, IsADirectoryError):
        raise
    except (OSError, *_DAMAGED_IMAGE_ERRORS, image_module.DecompressionBombError) as error:
        message = f"cannot read the image {name!r}: {type(error).__name__}: {error}"
        raise OSError(message) from error
    if array.ndim == 2:
        return array[numpy.newaxis]
    return array.transpose(2, 0, 1)


class _ChunkedReads:
    """A binary file whose ``read(n)`` reads in chunks. Pillow reads a chunk of an image with
    one ``read`` of the size the file states, and a file object reserves that size up front
    (up to 2 GiB for a damaged PNG chunk length); other attributes are the file's."""

    def __init__(self, file: Any) -> None:
        self._file = file

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            return self._file.read()
        parts = []
        while size > 0 and (part := self._file.read(min(size, 2**20))):
            parts.append(part)
            size -= len(part)
        return b"".join(parts)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file, name)


# What Pillow's decoders raise, besides OSError, for damaged files (a damaged header can make
# a format plugin fail almost anywhere).
_DAMAGED_IMAGE_ERRORS = (
    ValueError,
    TypeError,
    IndexError,
    KeyError,
    SyntaxError,
    EOFError,
    OverflowError,
    MemoryError,
    ZeroDivisionError,
    struct.error,
    zlib.error,
)


def _read_pairs(pairs: str | os.PathLike | Sequence) -> list[tuple[str, int]]:
    """Read ``path label`` lines from a text file, or check a given list of pairs."""
    if not isinstance(pairs, (str, os.PathLike)):
        return [(path, label) for path, label in pairs]
    result = []
    with open(pairs) as lines:
        for line_number, line in enumerate(lines, 1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 2:
                raise ValueError(
                    f"line {line_number} of {os.fspath(pairs)!r} should be 'path label', got "
                    f"{line.rstrip()!r}"
                )
            try:
                result.append((fields[0], int(fields[1])))
            except ValueError:
                raise ValueError(
                    f"line {line_number} of {os.fspath(pairs)!r} has the label {fields[1]!r}, "
                    "expected an integer"
                ) from None
    return result


def _checked_index(i: Any, length: int, what: str) -> int:
    index = operator.index(i)
    if not -length <= index < length:
        raise IndexError(f"index {i} is out of range for a {what} of {length} examples")
    return index


class ImageDataset(DatasetMixin):
    """Dataset of images built from a list of paths to image files.

    Args:
        paths: A list of image paths, or the path of a text file listing one per line.
        root: The directory the image paths are relative to.
        dtype: The dtype of the image arrays (``None``: ``chainer.config.dtype``).

    Example:
        >>> import os
        >>> from PIL import Image
        >>> os.makedirs('images')
        >>> for name in ('cat.png', 'dog.png'):
        ...     Image.new('RGB', (64, 48)).save(os.path.join('images', name))  # width, height
        >>> dataset = ImageDataset(['cat.png', 'dog.png'], root='images')
        >>> dataset[0].shape, dataset[0].dtype
        ((3, 48, 64), dtype('float32'))
    """

    def __init__(
        self,
        paths: str | os.PathLike | Sequence[str],
        root: str | os.PathLike = ".",
        dtype: Any = None,
    ) -> None:
        _pillow_image_module(type(self).__name__)
        if isinstance(paths, (str, os.PathLike)):
            with open(paths) as lines:
                paths = [line.strip() for line in lines if line.strip()]
        self._paths = list(paths)
        self._root = os.fspath(root)
        self._dtype = chainer.get_dtype(dtype)

    def __len__(self) -> int:
        return len(self._paths)

    def get_example(self, i: int) -> numpy.ndarray:
        """Read image ``i`` as a (C, H, W) array."""
        path = self._paths[_checked_index(i, len(self), "ImageDataset")]
        full_path = os.path.join(self._root, path)
        return _read_image(full_path, self._dtype, full_path)


class LabeledImageDataset(DatasetMixin):
    """Dataset of image and label pairs built from a list of paths and labels.

    Args:
        pairs: A list of ``(path, label)`` pairs, or the path of a text file with one
            ``path label`` pair (separated by white space, label an integer) per line.
        root: The directory the image paths are relative to.
        dtype: The dtype of the image arrays (``None``: ``chainer.config.dtype``).
        label_dtype: The dtype of the labels.

    Example:
        >>> import os
        >>> from PIL import Image
        >>> os.makedirs('images')
        >>> Image.new('L', (32, 32)).save(os.path.join('images', 'cat.png'))
        >>> with open('train.txt', 'w') as f:
        ...     _ = f.write('cat.png 3\\n')
        >>> dataset = LabeledImageDataset('train.txt', root='images')
        >>> image, label = dataset[0]
        >>> image.shape, label
        ((1, 32, 32), array(3, dtype=int32))
    """

    def __init__(
        self,
        pairs: str | os.PathLike | Sequence[tuple[str, int]],
        root: str | os.PathLike = ".",
        dtype: Any = None,
        label_dtype: Any = numpy.int32,
    ) -> None:
        _pillow_image_module(type(self).__name__)
        self._pairs = _read_pairs(pairs)
        self._root = os.fspath(root)
        self._dtype = chainer.get_dtype(dtype)
        self._label_dtype = label_dtype

    def __len__(self) -> int:
        return len(self._pairs)

    def get_example(self, i: int) -> tuple[numpy.ndarray, numpy.ndarray]:
        """Read image ``i`` and return it with its label (a 0-d array)."""
        path, label = self._pairs[_checked_index(i, len(self), "LabeledImageDataset")]
        full_path = os.path.join(self._root, path)
        image = _read_image(full_path, self._dtype, full_path)
        return image, numpy.array(label, dtype=self._label_dtype)


class ZippedImageDataset(DatasetMixin):
    """Dataset of images built from a zip file.

    Every file member of the archive (directories excluded) is an example, in archive
    order. The archive is opened separately in each process that reads it, so the dataset
    works with :class:`~chainer.iterators.MultiprocessIterator` and can be pickled. Nothing
    is extracted: member names (``..``, absolute paths) never become file paths.

    An image is decoded while it is decompressed, so a member is never held whole in
    memory (Pillow's ``MAX_IMAGE_PIXELS`` bounds the image); the rest of the member is then
    read through, in chunks, to check its CRC.

    Args:
        zipfilename: The path of the zip archive.
        dtype: The dtype of the image arrays (``None``: ``chainer.config.dtype``).

    Raises:
        zipfile.BadZipFile: The archive, or the member read, is damaged (also for a member
            compressed with a method :mod:`zipfile` cannot read, or encrypted); the message
            names the archive.
        OSError: The member is not an image Pillow reads, or a damaged one (the message
            names the member).
        KeyError: :meth:`get_example` was given a name that is not in the archive.
    """

    def __init__(self, zipfilename: str | os.PathLike, dtype: Any = None) -> None:
        _pillow_image_module(type(self).__name__)
        self._zipfilename = os.fspath(zipfilename)
        self._archive = ProcessLocal(
            functools.partial(_zip_archive.open_archive, self._zipfilename)
        )
        members = self._archive.infolist()
        # Positions in the archive, so that members of the same name stay apart. (Not
        # ZipInfo.is_dir(), which fails on an empty name.)
        self._positions = [
            k for k, member in enumerate(members) if not member.filename.endswith("/")
        ]
        self._paths = [members[k].filename for k in self._positions]
        self._dtype = chainer.get_dtype(dtype)

    def __len__(self) -> int:
        return len(self._paths)

    def get_example(self, i_or_filename: int | str) -> numpy.ndarray:
        """Read an image, given by its index or by its member name in the archive."""
        if isinstance(i_or_filename, str):
            member = self._archive.getinfo(i_or_filename)
        else:
            index = _checked_index(i_or_filename, len(self), "ZippedImageDataset")
            member = self._archive.infolist()[self._positions[index]]
        name = member.filename
        with _zip_archive.archive_errors(self._zipfilename, name):
            _zip_archive.check_lzma_dictionary(self._zipfilename, member)
            stream = self._archive.open(member)
        with stream:
            reads = _MemberReads(stream, self._zipfilename, name)
            image = _read_image(reads, self._dtype, name)
            reads.read_to_end()
        return image


class _MemberReads(_ChunkedReads):
    """The chunked reads of a zip member, with its decompression errors as BadZipFile (which
    the image reader lets through, so that they are not taken for a damaged image)."""

    def __init__(self, stream: Any, archive: str, name: str) -> None:
        super().__init__(stream)
        self._archive_name, self._member_name = archive, name

    def read(self, size: int | None = -1) -> bytes:
        try:
            return super().read(size)
        except (*_zip_archive.DAMAGED_ARCHIVE_ERRORS, OSError) as error:  # bz2: OSError
            raise _zip_archive.damaged(self._archive_name, self._member_name, error) from error

    def read_to_end(self) -> None:
        """Read the rest of the member, so that zipfile checks its CRC."""
        while self.read(2**20):
            pass


class MultiZippedImageDataset(DatasetMixin):
    """Dataset of images built from a list of paths to zip files.

    The examples are those of a :class:`ZippedImageDataset` per archive, one archive after
    another.

    Args:
        zipfilenames: The paths of the zip archives.
        dtype: The dtype of the image arrays (``None``: ``chainer.config.dtype``).
    """

    def __init__(self, zipfilenames: Sequence[str | os.PathLike], dtype: Any = None) -> None:
        self._datasets = [ZippedImageDataset(name, dtype) for name in zipfilenames]
        self._offsets = [0, *itertools.accumulate(len(d) for d in self._datasets)]

    def __len__(self) -> int:
        return self._offsets[-1]

    def get_example(self, i: int) -> numpy.ndarray:
        """Read image ``i`` of the concatenated archives."""
        index = _checked_index(i, len(self), "MultiZippedImageDataset") % len(self)
        which = bisect.bisect_right(self._offsets, index) - 1
        return self._datasets[which].get_example(index - self._offsets[which])


class LabeledZippedImageDataset(DatasetMixin):
    """Dataset of zipped image and label pairs.

    Args:
        zipfilename: The path of the zip archive holding the images.
        labelfilename: The path of a text file with one ``member label`` pair per line,
            where ``member`` is the name of an image in the archive.
        dtype: The dtype of the image arrays (``None``: ``chainer.config.dtype``).
        label_dtype: The dtype of the labels.
    """

    def __init__(
        self,
        zipfilename: str | os.PathLike,
        labelfilename: str | os.PathLike,
        dtype: Any = None,
        label_dtype: Any = numpy.int32,
    ) -> None:
        self._images = ZippedImageDataset(zipfilename, dtype)
        self._pairs = _read_pairs(labelfilename)
        self._label_dtype = label_dtype

    def __len__(self) -> int:
        return len(self._pairs)

    def get_example(self, i: int) -> tuple[numpy.ndarray, numpy.ndarray]:
        """Read image ``i`` of the label file and return it with its label (a 0-d array)."""
        name, label = self._pairs[_checked_index(i, len(self), "LabeledZippedImageDataset")]
        return self._images.get_example(name), numpy.array(label, dtype=self._label_dtype)
