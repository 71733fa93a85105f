"""``PickleDataset``: random access to a file of consecutive pickles, and its writer.

Unpickling can run arbitrary code, so by default only plain data is loaded (numbers,
strings, bytes, containers, NumPy arrays); ``trusted=True`` loads any object, for files
you trust. (Chainer v7 always loaded any object.)
"""

from __future__ import annotations

import operator
import os
import pickle
import threading
import weakref
from typing import IO, Any

from chainer.dataset.dataset_mixin import DatasetMixin
from chainer.datasets._process_local import ProcessLocal
from chainer.datasets._safe_pickle import PlainDataUnpickler


class PickleDatasetWriter:
    """Writer class that makes PickleDataset.

    Each :meth:`write` appends one pickle, so that :class:`PickleDataset` can later seek to
    any example. It is a context manager that closes the writer on exit.

    Args:
        writer: A binary file object opened for writing.
        protocol: The pickle protocol.

    Example:
        >>> from chainer.datasets import open_pickle_dataset, open_pickle_dataset_writer
        >>> with open_pickle_dataset_writer('data.pkl') as writer:
        ...     for example in [(0, 'zero'), (1, 'one')]:
        ...         writer.write(example)
        >>> with open_pickle_dataset('data.pkl') as dataset:
        ...     dataset[1]
        (1, 'one')
    """

    def __init__(self, writer: IO[bytes], protocol: int = pickle.HIGHEST_PROTOCOL) -> None:
        self._writer = writer
        self._protocol = protocol

    def write(self, x: Any) -> None:
        """Append one example."""
        pickle.dump(x, self._writer, protocol=self._protocol)

    def flush(self) -> None:
        """Flush the underlying writer."""
        self._writer.flush()

    def close(self) -> None:
        """Close the underlying writer."""
        self._writer.close()

    def __enter__(self) -> PickleDatasetWriter:
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        self.close()


class PickleDataset(DatasetMixin):
    """Dataset stored in a storage using pickle.

    The constructor reads the whole file once, from its start, to find where each pickle
    starts; an access seeks there and unpickles one example. Accesses from several threads
    are serialized. It is a context manager that closes the reader on exit.

    Unpickling can run arbitrary code. Unless ``trusted`` is ``True``, only plain data is
    unpickled: ``None``, booleans, numbers, strings, bytes, tuples, lists, dicts, sets,
    NumPy arrays, dtypes and scalars; a pickle that names any other class or function is
    refused with :class:`pickle.UnpicklingError`, before anything of it runs. (A deliberate
    difference from Chainer v7, which unpickled anything: files of plain data, such as
    arrays and labels, load as before; pass ``trusted=True`` for files of other objects.)

    A reader with an ``after_fork()`` method has it called in every child process that this
    process forks while the dataset is alive (e.g. to reopen a file handle that parent and
    child must not share).

    Args:
        reader: A seekable binary file object holding the pickles written by
            :class:`PickleDatasetWriter`. Prefer :func:`open_pickle_dataset`, whose reader
            is reopened in each worker process of a
            :class:`~chainer.iterators.MultiprocessIterator`.
        trusted: Unpickle any object (only for files from a source you trust); keyword only.

    Raises:
        pickle.UnpicklingError: (Here or when reading an example.) The file is damaged or
            truncated, or holds an object other than plain data while ``trusted`` is
            ``False``; the message gives the byte offset of the pickle.
    """

    def __init__(self, reader: IO[bytes], *, trusted: bool = False) -> None:
        self._reader = reader
        self._trusted = trusted
        self._lock = ProcessLocal(threading.Lock)
        if callable(getattr(reader, "after_fork", None)):
            _call_after_fork(reader)
        self._positions = []
        reader.seek(0)
        while True:
            position = reader.tell()
            try:
                self._load_at(position)
            except EOFError:
                reader.seek(position)
                if reader.read(1):
                    raise pickle.UnpicklingError(
                        f"the pickle at byte {position} is truncated (the file ends in it)"
                    ) from None
                break
            self._positions.append(position)

    def __len__(self) -> int:
        return len(self._positions)

    def get_example(self, index: int) -> Any:
        """Unpickle and return example ``index``."""
        i = operator.index(index)
        if not -len(self) <= i < len(self):
            raise IndexError(
                f"index {index} is out of range for a PickleDataset of {len(self)} examples"
            )
        with self._lock.get():
            try:
                return self._load_at(self._positions[i])
            except EOFError as error:  # the file changed since it was scanned
                raise pickle.UnpicklingError(
                    f"example {i} at byte {self._positions[i]} is truncated"
                ) from error

    def _load_at(self, position: int) -> Any:
        self._reader.seek(position)
        if self._trusted:
            return pickle.load(self._reader)
        unpickler = PlainDataUnpickler(self._reader, refusal_hint=_REFUSAL_HINT)
        try:
            return unpickler.load()
        except pickle.UnpicklingError as error:
            raise pickle.UnpicklingError(f"the pickle at byte {position}: {error}") from error

    def close(self) -> None:
        """Close the reader."""
        self._reader.close()

    def __enter__(self) -> PickleDataset:
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        self.close()


_REFUSAL_HINT = (
    "; if you trust the file, pass trusted=True to PickleDataset or open_pickle_dataset "
    "(unpickling can run arbitrary code)"
)


class _FileReader:
    """The reader of :func:`open_pickle_dataset`: a binary file that is opened anew in a
    forked child (:meth:`after_fork`) and when unpickled, so that processes never share a file
    offset. Other attributes (``read``, ``seek``, ...) are those of the open file."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._file = open(path, "rb")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # also keeps half-unpickled instances from recursing
            raise AttributeError(name)
        return getattr(self._file, name)

    def after_fork(self) -> None:
        """Drop the file inherited from the parent and open it again."""
        self._file.close()
        self._file = open(self._path, "rb")

    def close(self) -> None:
        self._file.close()

    def __del__(self) -> None:
        # The reader owns its file: release it quietly, without a ResourceWarning.
        file = self.__dict__.get("_file")
        if file is not None:
            file.close()

    def __getstate__(self) -> dict:
        return {"_path": self._path}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["_path"])


def _call_after_fork(reader: Any) -> None:
    """Call ``reader.after_fork()`` in each forked child while ``reader`` is alive."""
    # A fork hook cannot be unregistered, so it holds the reader weakly where it can.
    try:
        target = weakref.ref(reader)
    except TypeError:  # not weakly referenceable: kept for the life of the process

        def target() -> Any:
            return reader

    def hook() -> None:
        alive = target()
        if alive is not None:
            alive.after_fork()

    os.register_at_fork(after_in_child=hook)


def open_pickle_dataset(path: str | os.PathLike, *, trusted: bool = False) -> PickleDataset:
    """Opens a dataset stored in a given path.

    The file is opened separately in each process that reads it, so the dataset works with
    :class:`~chainer.iterators.MultiprocessIterator` and can be pickled.

    Args:
        path: The path of a file written by :class:`PickleDatasetWriter`.
        trusted: Unpickle any object, not only plain data (see :class:`PickleDataset`);
            keyword only.

    Returns:
        A :class:`PickleDataset` (close it, or use it as a context manager).
    """
    return PickleDataset(_FileReader(os.fspath(path)), trusted=trusted)


def open_pickle_dataset_writer(
    path: str | os.PathLike, protocol: int = pickle.HIGHEST_PROTOCOL
) -> PickleDatasetWriter:
    """Opens a writer to make a PickleDataset.

    Args:
        path: The file to create (an existing file is overwritten).
        protocol: The pickle protocol.

    Returns:
        A :class:`PickleDatasetWriter` (close it, or use it as a context manager).
    """
    return PickleDatasetWriter(open(os.fspath(path), "wb"), protocol)
