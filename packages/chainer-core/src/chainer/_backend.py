"""The abstract :class:`Device` and the helpers every concrete backend module shares.

Concrete devices live in ``chainer.backends`` (``_cpu``, ``cuda``, ``intel64``, ``_chainerx``);
the public entry points (``get_device``, ``get_array_module``, ...) are in ``chainer.backend``.
"""

from __future__ import annotations

import contextlib
import copy
import sys
from collections.abc import Callable
from typing import Any


class Device:
    """A base class of unified devices.

    A device knows its array module (:attr:`xp`), which array types live on it, how to send
    arrays to it and how to make it current. Obtain one with :func:`chainer.get_device`.

    Two devices are equal when they are of the same class and have the same :attr:`name`.
    """

    @property
    def name(self) -> str:
        """The unique name of the device, usable as a device specifier (e.g. ``'@numpy'``)."""
        raise NotImplementedError(f"{type(self).__name__} does not define a device name")

    @property
    def xp(self):
        """The array module of this device (``numpy``, ``cupy`` or ``chainerx``)."""
        raise NotImplementedError(f"{type(self).__name__} does not define an array module")

    @property
    def supported_array_types(self) -> tuple[type, ...]:
        """The array types that may live on this device."""
        raise NotImplementedError(f"{type(self).__name__} does not define its array types")

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.name == other.name

    def __hash__(self) -> int:
        return hash((type(self), self.name))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"

    def __str__(self) -> str:
        return self.name

    def __reduce__(self):
        # A device is a value named by its specifier; rebuilding it from the name keeps copies
        # and pickles free of the array-module objects some devices hold.
        return _device_from_name, (self.name,)

    def __enter__(self):
        # A device used to be a context manager; silently doing nothing would hide a bug.
        raise RuntimeError(
            f"{self!r} is not a context manager: use "
            f"`with chainer.using_device({self.name!r}):` or `device.create_context()`"
        )

    def __exit__(self, *exc_info) -> None:
        # Only here so that ``with`` reaches __enter__ and its explanation.
        return None

    def create_context(self) -> contextlib.AbstractContextManager:
        """Return a context manager that makes this device current inside the ``with`` block."""
        return contextlib.nullcontext()

    def send_array(self, array):
        """Transfer one array (or ``None``) to this device."""
        raise NotImplementedError(f"{type(self).__name__} cannot send arrays")

    def send(self, arrays):
        """Transfer arrays to this device.

        Args:
            arrays: An array, ``None``, or an arbitrarily nested list, tuple or dict of them.
                An array that appears several times is transferred once and stays shared.

        Returns:
            The transferred arrays in the same structure. Arrays already on this device are
            returned as they are, without a copy.
        """
        return convert_arrays(arrays, self.send_array)

    def use(self) -> None:
        """Make this device the current one of its backend in this thread."""

    def is_array_supported(self, array) -> bool:
        """Return whether ``array`` is an array that lives on this device."""
        raise NotImplementedError(f"{type(self).__name__} does not define is_array_supported")


def _device_from_name(name: str) -> Device:
    from chainer import backend  # it builds on this module

    return backend.get_device(name)


def convert_arrays(arrays, convert: Callable[[Any], Any]):
    """Apply ``convert`` to every array of a nested list/tuple/dict structure.

    ``None`` leaves stay ``None``. Containers keep their type (namedtuples, dict and list
    subclasses included); an array object met twice is converted once, so sharing survives.
    """
    converted: dict[int, Any] = {}

    def walk(obj):
        if obj is None:
            return None
        if isinstance(obj, tuple):
            items = [walk(item) for item in obj]
            if hasattr(obj, "_fields"):
                return type(obj)._make(items)
            return type(obj)(items)
        if isinstance(obj, list):
            out = copy.copy(obj)
            out[:] = [walk(item) for item in obj]
            return out
        if isinstance(obj, dict):
            out = copy.copy(obj)
            for key, value in obj.items():
                out[key] = walk(value)
            return out
        key = id(obj)
        if key not in converted:
            converted[key] = convert(obj)
        return converted[key]

    return walk(arrays)


def loaded_type(module: str, name: str) -> Any:
    """Return ``module.name`` if ``module`` is already imported, else ``None``.

    An array of an optional library (CuPy, ChainerX, iDeep) can only exist once that library
    has been imported, so classifying an object never needs to import one.
    """
    return getattr(sys.modules.get(module), name, None)


def is_loaded_instance(obj: object, module: str, name: str) -> bool:
    """Return whether ``obj`` is an instance of ``module.name`` without importing ``module``."""
    cls = getattr(sys.modules.get(module), name, None)
    return cls is not None and isinstance(obj, cls)


_USE_LEVELS = {
    "==always": {"always": True, "auto": False, "never": False},
    ">=auto": {"always": True, "auto": True, "never": False},
}


def use_level_allows(level: str, setting: str, config_key: str) -> bool:
    """Decide a ternary ``'always'``/``'auto'``/``'never'`` setting for a code path.

    Args:
        level: ``'==always'`` for paths taken only when the user insists, ``'>=auto'`` for
            paths that are known to be at least as good.
        setting: The configured value, e.g. ``chainer.config.use_cudnn``.
        config_key: The configuration key, quoted in errors.
    """
    flags = _USE_LEVELS.get(level)
    if flags is None:
        raise ValueError(f"invalid {config_key} level {level!r}: expected '==always' or '>=auto'")
    if setting not in flags:
        raise ValueError(
            f"invalid chainer.config.{config_key} value {setting!r}: "
            "expected 'always', 'auto' or 'never'"
        )
    return flags[setting]
