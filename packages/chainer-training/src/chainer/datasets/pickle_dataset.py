"""``PickleDataset``: random access to a file of consecutive pickles, and its writer.

Loading a pickle can run arbitrary code: open only files you trust.
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

    A reader with an ``after_fork()`` method has it called in every child process that this
    process forks while the dataset is alive (e.g. to reopen a file handle that parent and
    child must not share).

    Args:
        reader: A seekable binary file object holding the pickles written by
            :class:`PickleDatasetWriter`. Prefer :func:`open_pickle_dataset`, whose reader
            is reopened in each worker process of a
            :class:`~chainer.iterators.MultiprocessIterator`.
    """

    def __init__(self, reader: IO[bytes]) -> None:
        self._reader = reader
        self._lock = ProcessLocal(threading.Lock)
        if callable(getattr(reader, "after_fork", None)):
            _call_after_fork(reader)
        self._positions = []
        reader.seek(0)
        while True:
            position = reader.tell()
            try:
                pickle.load(reader)
            except EOFError:
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
            self._reader.seek(self._positions[i])
            return pickle.load(self._reader)

    def close(self) -> None:
        """Close the reader."""
        self._reader.close()

    def __enter__(self) -> PickleDataset:
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        self.close()


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


def open_pickle_dataset(path: str | os.PathLike) -> PickleDataset:
    """Opens a dataset stored in a given path.

    The file is opened separately in each process that reads it, so the dataset works with
    :class:`~chainer.iterators.MultiprocessIterator` and can be pickled.

    Args:
        path: The path of a file written by :class:`PickleDatasetWriter`.

    Returns:
        A :class:`PickleDataset` (close it, or use it as a context manager).
    """
    return PickleDataset(_FileReader(os.fspath(path)))


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
