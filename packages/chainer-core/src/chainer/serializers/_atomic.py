"""Atomic replacement of a file: a crash while saving never destroys the previous file."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator


@contextlib.contextmanager
def atomic_write(target: str | os.PathLike) -> Iterator[str]:
    """Yield a temporary path to write to; on success it replaces ``target`` durably.

    The temporary file lives in the directory of ``target`` so that the final rename stays on
    one file system (and is therefore atomic). After the ``with`` body the file is flushed to
    disk, renamed over ``target`` and the directory entry is flushed too. If anything fails,
    the temporary file is removed and ``target`` is left exactly as it was.

    Example:
        >>> with atomic_write('model.npz') as path:
        ...     with open(path, 'wb') as f:
        ...         f.write(b'weights')
        7
        >>> with open('model.npz', 'rb') as f:
        ...     f.read()
        b'weights'
    """
    target = os.fspath(target)
    directory = os.path.dirname(os.path.abspath(target))
    with _naming(target):
        temp_path = _create_temp_file(directory, os.path.basename(target))
    try:
        with _naming(target):
            yield temp_path
            _keep_mode_of(target, temp_path)
            _fsync_path(temp_path)
            os.replace(temp_path, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_path)
        raise
    _fsync_directory(directory)


@contextlib.contextmanager
def _naming(target: str) -> Iterator[None]:
    # A write error (a full disk, a read-only file system) names no file, or the temporary
    # one: say which file could not be saved, keeping the type and errno of the error.
    try:
        yield
    except OSError as error:
        if error.errno is None or error.filename == target:
            raise
        note = " (the previous file, if any, is unchanged)"
        reason = error.strerror or str(error)
        raise OSError(
            error.errno, reason if reason.endswith(note) else reason + note, target
        ) from error


def _create_temp_file(directory: str, basename: str) -> str:
    # os.open with mode 0o666 lets the umask decide the permissions, as a plain open() would;
    # tempfile.mkstemp would force 0o600 onto the saved file. os.urandom is what
    # secrets.token_hex reads, without the 4 ms import of secrets (hmac, OpenSSL's hashlib).
    while True:
        path = os.path.join(directory, f".{basename}.{os.urandom(4).hex()}.tmp")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        os.close(fd)
        return path


def _keep_mode_of(target: str, temp_path: str) -> None:
    # Overwriting a file in place keeps its permissions; replacing it should do the same.
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        return
    os.chmod(temp_path, mode)


def _fsync_path(path: str) -> None:
    fd = os.open(path, os.O_RDWR)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_directory(directory: str) -> None:
    # Makes the rename itself durable. Some platforms (Windows) cannot open a directory;
    # there the rename is as durable as the platform allows.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
