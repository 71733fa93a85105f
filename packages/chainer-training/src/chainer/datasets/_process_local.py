"""Per-process resources (open files, zip archives, locks) for datasets read by workers.

A dataset that keeps a file open cannot share that handle with the worker processes of
:class:`~chainer.iterators.MultiprocessIterator`: after ``fork`` parent and children would
move one file offset under each other, and a handle cannot be pickled for ``spawn``.
:class:`ProcessLocal` holds a factory instead, and makes the resource anew on first use in
each process (and after unpickling).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any


class ProcessLocal:
    """The object ``factory()`` makes, made once per process, on first use.

    Attribute access is forwarded to that object, so a :class:`ProcessLocal` of a file can be
    handed where a file is expected. Pickling keeps only the factory; garbage collection
    closes the object.
    """

    def __init__(self, factory: Callable[[], Any]) -> None:
        self._factory = factory
        self._value: Any = None
        self._pid: int | None = None

    def get(self) -> Any:
        """Return this process's object, making it on the first call in the process."""
        if self._pid != os.getpid():
            self._value = self._factory()
            self._pid = os.getpid()
        return self._value

    def close(self) -> None:
        """Close the object of this process, if it was made; the next use makes a new one."""
        if self._pid == os.getpid() and hasattr(self._value, "close"):
            self._value.close()
        self._value = None
        self._pid = None

    def __del__(self) -> None:
        # The object owns its resource: release it quietly, without a ResourceWarning.
        if getattr(self, "_pid", None) is not None:
            self.close()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # also keeps half-unpickled instances from recursing
            raise AttributeError(name)
        return getattr(self.get(), name)

    def __getstate__(self) -> dict:
        return {"_factory": self._factory}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["_factory"])
