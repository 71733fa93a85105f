"""Fetching and parsing the raw files of the concrete datasets.

A download that fails to parse is removed from the download cache, so that a corrupted
file is reported once and fetched anew on the next call rather than failing forever.
"""

from __future__ import annotations

import contextlib
import gzip
import os
import pickle
import tarfile
import zlib
from collections.abc import Callable
from typing import IO, Any, TypeVar

import numpy

from chainer.dataset import download
from chainer.datasets._safe_pickle import PlainDataUnpickler

_T = TypeVar("_T")

# What parsing a damaged or wrongly formatted download raises (gzip.BadGzipFile is an OSError,
# which is otherwise not caught: permission problems are not the download's fault).
_FORMAT_ERRORS = (
    ValueError,
    EOFError,
    KeyError,
    gzip.BadGzipFile,
    zlib.error,
    tarfile.TarError,
    pickle.UnpicklingError,
)


def load_cached_download(url: str, parse: Callable[[str], _T], what: str) -> _T:
    """Download ``url`` through the cache and return ``parse(path)``.

    Raises:
        ValueError: ``parse`` found the file damaged or not a ``what``; the file was removed
            from the download cache.
    """
    path = download.cached_download(url)
    try:
        return parse(path)
    except _FORMAT_ERRORS as error:
        with contextlib.suppress(FileNotFoundError):
            os.remove(path)
        raise ValueError(
            f"the file downloaded from {url} is not a valid {what} ({error}); it was removed "
            "from the download cache, call again to download it anew"
        ) from error


def cached_arrays(dataset_name: str, file_name: str, create: Callable[[], dict]) -> dict:
    """Return the arrays cached in ``<root>/<dataset_name>/<file_name>``, creating them once.

    Args:
        create: Makes the arrays (a dict of name to NumPy array) from the raw downloads.
    """

    def creator(path: str) -> dict:
        arrays = create()
        numpy.savez_compressed(path, **arrays)
        return arrays

    def loader(path: str) -> dict:
        with numpy.load(path, allow_pickle=False) as archive:
            return {name: archive[name] for name in archive.files}

    root = download.get_dataset_directory(dataset_name)
    return download.cache_or_load_file(os.path.join(root, file_name), creator, loader)


def load_array_pickle(file: IO[bytes]) -> Any:
    """Unpickle a Python 2 era pickle of dicts, lists and NumPy arrays (keys become bytes).

    Raises:
        pickle.UnpicklingError: The data is damaged or holds other objects than plain data.
    """
    try:
        return PlainDataUnpickler(file, encoding="bytes").load()
    except EOFError as error:
        raise pickle.UnpicklingError(f"damaged pickle: {error}") from error
