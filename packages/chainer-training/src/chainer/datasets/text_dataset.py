"""``TextDataset``: random access to the lines of one or more text files."""

from __future__ import annotations

import functools
import operator
import os
import threading
from collections.abc import Callable, Sequence

from chainer.dataset.dataset_mixin import DatasetMixin
from chainer.datasets._process_local import ProcessLocal


class TextDataset(DatasetMixin):
    """Dataset of a line-oriented text file.

    Each example is a line of the file, newline included. With several files (which must
    have the same number of lines) an example is the tuple of their lines at one position.
    The positions of the lines are found once, in the constructor; examples are then read
    on access. The files stay open until :meth:`close`; every process (e.g. the workers of
    :class:`~chainer.iterators.MultiprocessIterator`) opens its own handles, and the dataset
    can be pickled (without the handles) as long as the files do not change.

    Args:
        paths: The path of the text file, or a list of paths of parallel files.
        encoding: Passed to :func:`open`.
        errors: Passed to :func:`open`.
        newline: Passed to :func:`open`.
        filter_func: ``None``, or a function taking the lines at one position (one argument
            per file) and returning whether to keep them.

    Example:
        >>> dataset = TextDataset(['source.txt', 'target.txt'], encoding='utf-8')
        >>> source_line, target_line = dataset[0]
    """

    def __init__(
        self,
        paths: str | os.PathLike | Sequence[str | os.PathLike],
        encoding: str | None = None,
        errors: str | None = None,
        newline: str | None = None,
        filter_func: Callable[..., bool] | None = None,
    ) -> None:
        self._unary = isinstance(paths, (str, os.PathLike))
        paths = [paths] if self._unary else list(paths)
        if not paths:
            raise ValueError("TextDataset needs at least one path")
        self._paths = [os.fspath(path) for path in paths]
        self._files = [
            ProcessLocal(
                functools.partial(open, path, encoding=encoding, errors=errors, newline=newline)
            )
            for path in self._paths
        ]
        self._lock = ProcessLocal(threading.Lock)
        self._positions = self._index_lines(filter_func)

    def _index_lines(self, filter_func: Callable[..., bool] | None) -> list[tuple]:
        files = [handle.get() for handle in self._files]
        positions = []
        line_number = 0
        while True:
            starts = tuple(f.tell() for f in files)
            lines = [f.readline() for f in files]
            ended = [line == "" for line in lines]
            if all(ended):
                return positions
            if any(ended):
                short = self._paths[ended.index(True)]
                raise ValueError(
                    f"TextDataset needs files with the same number of lines, but {short!r} "
                    f"ends after {line_number} lines while the others go on"
                )
            line_number += 1
            if filter_func is None or filter_func(*lines):
                positions.append(starts)

    def __len__(self) -> int:
        return len(self._positions)

    def get_example(self, idx: int) -> str | tuple[str, ...]:
        """Return the line (or tuple of lines) at position ``idx`` among the kept lines."""
        index = operator.index(idx)
        if not -len(self) <= index < len(self):
            raise IndexError(f"index {idx} is out of range for a TextDataset of {len(self)} lines")
        starts = self._positions[index]
        with self._lock.get():
            lines = []
            for handle, start in zip(self._files, starts):
                f = handle.get()
                f.seek(start)
                lines.append(f.readline())
        return lines[0] if self._unary else tuple(lines)

    def close(self) -> None:
        """Close the files opened by this process (a later access reopens them)."""
        for handle in self._files:
            handle.close()
