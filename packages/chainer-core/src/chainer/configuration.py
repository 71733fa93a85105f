"""Process-wide and thread-local configuration (``chainer.global_config`` / ``chainer.config``).

``config`` reads a key from the current thread's own settings first and falls back to
``global_config``, so a thread can change a setting without affecting the others.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator
from typing import Any


class GlobalConfig:
    """Configuration shared by every thread of the process: a plain attribute bag."""

    def __init__(self) -> None:
        # Classes of the LocalConfig views of this object: every value set here is mirrored
        # as a class attribute there, so a thread-local read is a single C-level lookup.
        object.__setattr__(self, "_view_classes", [])

    _view_classes: list[type]

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        for view in self._view_classes:
            setattr(view, name, value)

    def __delattr__(self, name: str) -> None:
        object.__delattr__(self, name)
        for view in self._view_classes:
            delattr(view, name)

    def show(self, file=sys.stdout) -> None:
        """Print every key and value, sorted by key."""
        _show(_public(vars(self)), file)


class LocalConfig(threading.local):
    """Thread-local configuration that falls back to a :class:`GlobalConfig`.

    Args:
        global_config: The configuration consulted for keys this thread did not set.
    """

    def __new__(cls, global_config: GlobalConfig):
        # Each view gets its own class that carries the global values as class attributes;
        # values set on the instance are per thread (threading.local) and take precedence.
        view = type(cls.__name__, (cls,), {"__module__": cls.__module__, "_global": global_config})
        for name, value in _public(vars(global_config)).items():
            setattr(view, name, value)
        global_config._view_classes.append(view)
        # threading.local keeps these arguments to call __init__ again in every new thread.
        return super().__new__(view, global_config)  # type: ignore[call-arg]

    def __init__(self, global_config: GlobalConfig) -> None:
        pass  # the global config lives on this view's class (see __new__)

    def show(self, file=sys.stdout) -> None:
        """Print every effective key and value of the current thread, sorted by key."""
        _show({**_public(vars(self._global)), **_public(vars(self))}, file)


def _public(entries: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in entries.items() if not k.startswith("_")}


def _show(entries: dict[str, Any], file) -> None:
    width = max((len(key) for key in entries), default=0)
    for key in sorted(entries):
        file.write(f"{key:<{width}} {entries[key]}\n")  # one space, as v7


global_config = GlobalConfig()
config = LocalConfig(global_config)

_UNSET = object()


@contextlib.contextmanager
def using_config(name: str, value: Any, config: LocalConfig = config) -> Iterator[None]:
    """Set a thread-local configuration key inside a ``with`` block, then restore it.

    Example:
        >>> with chainer.using_config('train', False):
        ...     chainer.config.train  # evaluation mode in this block only
        False
        >>> chainer.config.train
        True
    """
    previous = vars(config).get(name, _UNSET)
    setattr(config, name, value)
    try:
        yield
    finally:
        if previous is _UNSET:
            delattr(config, name)
        else:
            setattr(config, name, previous)
