"""``TextDataset``: random access to the lines of one or more text files."""

from __future__ import annotations

import functools
import operator
import os
import threading
from collections.abc import Callable, Sequence
from typing import Any

from chainer.dataset.dataset_mixin import DatasetMixin
from chainer.datasets._process_local import ProcessLocal


class TextDataset(DatasetMixin):
    """Dataset of a line-oriented text file.

    Each example is a line of the file, newline included. With several files (which must
    have the same number of lines) an example is the tuple of their lines at one position;
    with one file (a path, or a list of one path) it is the line itself. The positions of
    the lines are found once, in the constructor; examples are then read on access. The
    files stay open until :meth:`close`; every process (e.g. the workers of
    :class:`~chainer.iterators.MultiprocessIterator`) opens its own handles, and the dataset
    can be pickled (without the handles) as long as the files do not change.

    Args:
        paths: The path of the text file, or a list of paths of parallel files.
        encoding: Passed to :func:`open`; a list gives one value per file.
        errors: Passed to :func:`open`; a list gives one value per file.
        newline: Passed to :func:`open`; a list gives one value per file.
        filter_func: ``None``, or a function taking the lines at one position (one argument
            per file) and returning whether to keep them.

    Example:
        >>> texts = {'source.txt': 'Hello\\nWorld\\n', 'target.txt': 'Bonjour\\nMonde\\n'}
        >>> for path, text in texts.items():
        ...     with open(path, 'w', encoding='utf-8') as f:
        ...         _ = f.write(text)
        >>> dataset = TextDataset(['source.txt', 'target.txt'], encoding='utf-8')
        >>> source_line, target_line = dataset[1]
        >>> source_line, target_line
        ('World\\n', 'Monde\\n')
        >>> dataset.close()
    """

    def __init__(
        self,
        paths: str | os.PathLike | Sequence[str | os.PathLike],
        encoding: str | Sequence[str | None] | None = None,
        errors: str | Sequence[str | None] | None = None,
        newline: str | Sequence[str | None] | None = None,
        filter_func: Callable[..., bool] | None = None,
    ) -> None:
        paths = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
        if not paths:
            raise ValueError("TextDataset needs at least one path")
        self._unary = len(paths) == 1
        self._paths = [os.fspath(path) for path in paths]
        options = zip(
            _per_file(encoding, "encoding", len(paths)),
            _per_file(errors, "errors", len(paths)),
            _per_file(newline, "newline", len(paths)),
        )
        self._files = [
            ProcessLocal(functools.partial(open, path, encoding=enc, errors=err, newline=nl))
            for path, (enc, err, nl) in zip(self._paths, options)
        ]
        self._closed = False
        self._lock = ProcessLocal(threading.Lock)
        try:
            self._positions = self._index_lines(filter_func)
        except BaseException:
            # e.g. a UnicodeDecodeError: the caller gets no dataset to close, so close here
            self.close()
            raise

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
        if self._closed:
            raise ValueError("I/O operation on a closed TextDataset")
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
        """Close the files opened by this process; a later access raises ``ValueError``."""
        for handle in self._files:
            handle.close()
        self._closed = True


def _per_file(value: Any, name: str, n_files: int) -> list:
    if isinstance(value, (list, tuple)):
        if len(value) != n_files:
            raise ValueError(
                f"TextDataset: {name} has {len(value)} values for {n_files} files; give one "
                "value, or one per file"
            )
        return list(value)
    return [value] * n_files
