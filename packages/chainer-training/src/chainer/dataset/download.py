"""Dataset root directory, cached downloads and cached derived files.

Every concrete dataset (:func:`chainer.datasets.get_mnist`, ...) keeps its files under the
dataset root: ``$CHAINER_DATASET_ROOT`` when that environment variable is set, else
``~/.chainer/dataset``; :func:`set_dataset_root` overrides both (the setting lives in
chainer-core, which the model zoo of chainer-links reads too). Raw downloads are cached in
``<root>/_dl_cache`` under the MD5 hash of their URL, converted files under
``<root>/<dataset name>/``.

Files appear in the cache atomically: they are written in a private staging directory next
to their final place and renamed into it only once complete, so an interrupted or failed
download or conversion never leaves a partial file where a later call would trust it.
Concurrent processes may both download a missing file; the last rename wins, and both
copies are complete.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from typing import TypeVar

from chainer._dataset_root import get_dataset_root
from chainer._dataset_root import set_dataset_root as set_dataset_root  # public here, as in v7

_T = TypeVar("_T")

_DOWNLOAD_TIMEOUT = 60.0  # seconds without progress before a download fails
_CHUNK_SIZE = 1 << 20


def get_dataset_directory(dataset_name: str, create_directory: bool = True) -> str:
    """Gets the path to the directory of a given dataset under the dataset root.

    Args:
        dataset_name: The dataset's name, which may contain ``/`` (e.g. ``'pfnet/chainer/mnist'``).
        create_directory: Whether to create the directory (and its parents) when missing.

    Returns:
        The path ``<dataset root>/<dataset_name>``.
    """
    path = os.path.join(get_dataset_root(), dataset_name)
    if create_directory:
        os.makedirs(path, exist_ok=True)
    return path


def cached_download(url: str) -> str:
    """Downloads a file and caches it.

    The file is downloaded only when it is not in the cache yet. It is fetched into a staging
    directory and renamed into ``<dataset root>/_dl_cache/<md5 of url>`` once complete. A
    download that ends before the announced ``Content-Length`` (or a chunked one that breaks
    off) is rejected, and nothing is left in the cache.

    Args:
        url: The URL of the file.

    Returns:
        The path to the cached file.

    Raises:
        OSError: The download failed or was truncated; the message names the URL.
    """
    cache_root = os.path.join(get_dataset_root(), "_dl_cache")
    os.makedirs(cache_root, exist_ok=True)
    cache_path = os.path.join(cache_root, _url_hash(url))
    if os.path.exists(cache_path):
        return cache_path
    print(f"Downloading from {url}...", flush=True)
    with _staged(cache_path) as temp_path:
        _download(url, temp_path)
    return cache_path


def cache_or_load_file(
    path: str | os.PathLike, creator: Callable[[str], _T], loader: Callable[[str], _T]
) -> _T:
    """Caches a file if it does not exist, or loads it otherwise.

    When ``path`` exists, this returns ``loader(path)``. Otherwise it calls
    ``creator(temp_path)``, which must write the file at ``temp_path`` (a path with the same
    file name as ``path``, in a staging directory) and return its content; the file is then
    renamed to ``path`` and the content returned. If ``creator`` fails, nothing is left at
    ``path``. The dataset root is created first, as the cache lives under it.

    Args:
        path: The path of the cache file.
        creator: Function that writes the file at the given path and returns its content.
        loader: Function that reads the file at the given path and returns its content.

    Returns:
        What ``creator`` or ``loader`` returned.

    Raises:
        RuntimeError: The dataset root cannot be created as a directory.

    Example:
        >>> def create(path):
        ...     data = numpy.arange(10)
        ...     numpy.savez(path, data=data)
        ...     return {'data': data}
        >>> def load(path):
        ...     with numpy.load(path) as npz:
        ...         return {'data': npz['data']}
        >>> cache_or_load_file('arange.npz', create, load)  # creates the file
        {'data': array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])}
        >>> cache_or_load_file('arange.npz', create, load)  # loads it
        {'data': array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])}
    """
    path = os.fspath(path)
    if os.path.exists(path):
        return loader(path)
    root = get_dataset_root()
    try:
        os.makedirs(root, exist_ok=True)
    except OSError as error:
        message = f"cannot create the dataset root directory {root!r}: {error}"
        raise RuntimeError(message) from error
    with _staged(path) as temp_path:
        content = creator(temp_path)
        if not os.path.exists(temp_path):
            raise FileNotFoundError(
                f"cache_or_load_file: the creator {creator!r} returned without writing the "
                f"file at the path it was given ({temp_path!r})"
            )
    return content


def _url_hash(url: str) -> str:
    # The same naming as earlier Chainer releases, so their download caches stay valid.
    return hashlib.md5(url.encode("utf-8"), usedforsecurity=False).hexdigest()


@contextlib.contextmanager
def _staged(target: str) -> Iterator[str]:
    """Yield a path named like ``target`` in a fresh directory beside it; rename on success.

    The staging directory is on the same file system as ``target`` (so the rename is atomic)
    and is removed in every case, taking any partial file with it.
    """
    directory = os.path.dirname(os.path.abspath(target))
    os.makedirs(directory, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=".staging-", dir=directory)
    try:
        temp_path = os.path.join(staging, os.path.basename(target))
        yield temp_path
        os.replace(temp_path, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _download(url: str, path: str) -> None:
    # Imported here: urllib.request brings http.client, email, ssl and socket, about 10 ms that
    # `import chainer.training` (which needs this module) would pay for every program.
    import http.client
    import urllib.error
    import urllib.request

    received = 0
    try:
        with urllib.request.urlopen(url, timeout=_DOWNLOAD_TIMEOUT) as response:
            expected = response.headers.get("Content-Length")
            with open(path, "wb") as output:
                while chunk := response.read(_CHUNK_SIZE):
                    output.write(chunk)
                    received += len(chunk)
    except http.client.IncompleteRead:
        raise OSError(_truncated_message(url, received, None)) from None
    except (urllib.error.URLError, http.client.HTTPException, OSError) as error:
        if isinstance(error, urllib.error.HTTPError):
            error.close()  # it holds the error response
        reason = getattr(error, "reason", None) or error
        raise OSError(f"cannot download {url}: {reason}") from error
    if expected is not None and received != int(expected):
        raise OSError(_truncated_message(url, received, int(expected)))


def _truncated_message(url: str, received: int, expected: int | None) -> str:
    announced = "" if expected is None else f" of the {expected} announced"
    return (
        f"the download of {url} is truncated: the connection ended after {received} bytes"
        f"{announced}; nothing was cached, call again to retry"
    )
