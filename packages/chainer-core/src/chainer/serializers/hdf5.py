"""Serialization in HDF5 format (needs h5py: ``pip install "chainer-core[hdf5]"``).

Each serializable child becomes an HDF5 group and each value a dataset, so the file mirrors
the object hierarchy. ``None`` is stored as an empty dataset (``h5py.Empty``) and strings as
UTF-8 string datasets. h5py is imported only when these functions are used.

Example:
    >>> model = L.Linear(3, 2)
    >>> chainer.serializers.save_hdf5('model.h5', model)
    >>> chainer.serializers.load_hdf5('model.h5', model)
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy

from chainer.serializer import Deserializer, Serializer
from chainer.serializers._atomic import atomic_write
from chainer.serializers._values import check_stored, restore, to_numpy


def __getattr__(name: str) -> Any:
    if name == "_available":  # v7 compatibility: whether h5py can be imported (not importing)
        return importlib.util.find_spec("h5py") is not None
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _import_h5py() -> ModuleType:
    try:
        import h5py
    except ImportError as exc:
        raise RuntimeError(
            "HDF5 serialization needs h5py, which is not installed: "
            'pip install "chainer-core[hdf5]" (or pip install h5py)'
        ) from exc
    return h5py


# What h5py raises, besides ValueError, for damaged data, object headers and symbol tables.
_DAMAGED = (OSError, RuntimeError, TypeError)


class HDF5Serializer(Serializer):
    """Serializer that writes an object into an HDF5 group.

    Args:
        group: The ``h5py.File`` or ``h5py.Group`` to write into.
        compression: h5py compression of array datasets (an integer is a gzip level;
            ``None`` disables compression). Scalars are never compressed.
    """

    def __init__(self, group: Any, compression: int | str | None = 4) -> None:
        _import_h5py()
        self.group = group
        self.compression = compression

    def __getitem__(self, key: str) -> HDF5Serializer:
        return HDF5Serializer(self.group.require_group(key.strip("/")), self.compression)

    def __call__(self, key: str, value: Any) -> Any:
        """Write ``value`` as the dataset ``key`` of the group and return it unchanged."""
        h5py = _import_h5py()
        name = key.lstrip("/")
        array = to_numpy(_full_name(self.group, name), value)
        options = {}
        if array is None:
            data = h5py.Empty("f")
        else:
            # h5py has no fixed-width unicode type; UTF-8 strings hold the same text.
            data = array.astype(h5py.string_dtype()) if array.dtype.kind == "U" else array
            if array.ndim > 0:
                options["compression"] = self.compression
        self.group.create_dataset(name, data=data, **options)
        return value


class HDF5Deserializer(Deserializer):
    """Deserializer that loads an object from an HDF5 group.

    Args:
        group: The ``h5py.File`` or ``h5py.Group`` to read from (``None`` reads as an empty
            group: every value is missing).
        strict: If ``True``, a missing value or child group raises :class:`KeyError`;
            otherwise the value is left unchanged.
    """

    def __init__(self, group: Any, strict: bool = True) -> None:
        self._h5py = _import_h5py()
        self.group = group
        self.strict = strict

    def __getitem__(self, key: str) -> HDF5Deserializer:
        node = self._find(key.strip("/"), self._h5py.Group)
        return HDF5Deserializer(node, strict=self.strict)

    def __call__(self, key: str, value: Any) -> Any:
        """Load dataset ``key``; ``value`` as in :meth:`chainer.AbstractSerializer.__call__`."""
        name = key.lstrip("/")
        dataset = self._find(name, self._h5py.Dataset)
        if dataset is None:
            return value
        return restore(_full_name(self.group, name), value, self._read(dataset, value))

    def _find(self, name: str, kind: type):
        try:
            node = self.group[name] if self.group is not None and name in self.group else None
        except (KeyError, *_DAMAGED) as exc:
            raise ValueError(
                f"cannot open {_full_name(self.group, name)!r} in the HDF5 file: {exc}"
            ) from exc
        if node is not None:
            if not isinstance(node, kind):
                raise ValueError(
                    f"{_full_name(self.group, name)!r} in the HDF5 file is a "
                    f"{type(node).__name__}, expected a {kind.__name__}"
                )
            return node
        if self.strict:
            raise KeyError(
                f"{_full_name(self.group, name)!r} is not in the HDF5 file; pass strict=False "
                "to leave missing values unchanged"
            )
        return None

    def _read(self, dataset, value: Any):
        with _damage_named(dataset):
            shape = dataset.shape
            if shape is None:  # h5py.Empty: None was saved
                return None
            is_text = self._h5py.check_string_dtype(dataset.dtype) is not None
            dtype = numpy.dtype(str) if is_text else dataset.dtype
        # Checked before reading, so a damaged shape does not allocate what it claims.
        check_stored(dataset.name, value, shape, dtype)
        with _damage_named(dataset):
            if is_text:
                return numpy.asarray(dataset.asstr()[()], dtype=str)
            return numpy.asarray(dataset[()])


@contextlib.contextmanager
def _damage_named(dataset: Any) -> Iterator[None]:
    try:
        yield
    except (ValueError, *_DAMAGED) as exc:
        raise ValueError(f"cannot read {dataset.name!r} from the HDF5 file: {exc}") from exc


def _full_name(group: Any, name: str) -> str:
    prefix = "" if group is None else group.name.rstrip("/")
    return f"{prefix}/{name}"


def save_hdf5(filename: str | os.PathLike, obj: Any, compression: int | str | None = 4) -> None:
    """Save an object to a file in HDF5 format, atomically.

    The file is written to a temporary file in the same directory that replaces ``filename``
    only once it is complete and on disk, so a failure while saving leaves any previous file
    intact.

    Args:
        filename: Name of the file to write.
        obj: Object to save; it must implement ``serialize(serializer)``.
        compression: h5py compression of array datasets (gzip level, or ``None``).

    Raises:
        RuntimeError: h5py is not installed.
    """
    h5py = _import_h5py()
    with atomic_write(filename) as temp_path, h5py.File(temp_path, "w") as file:
        HDF5Serializer(file, compression).save(obj)


def load_hdf5(filename: str | os.PathLike, obj: Any) -> None:
    """Load an object from a file in HDF5 format.

    Args:
        filename: Name of the file to read.
        obj: Object to load into; it must implement ``serialize(serializer)``.

    Raises:
        RuntimeError: h5py is not installed.
        ValueError: The file is not a readable HDF5 file, is damaged, or holds a value whose
            shape or dtype does not fit the object (the message names the dataset).
        KeyError: A value of the object is missing from the file.
    """
    h5py = _import_h5py()
    try:
        file = h5py.File(filename, "r")
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise ValueError(f"{os.fspath(filename)!r} is not a readable HDF5 file: {exc}") from exc
    with file:
        HDF5Deserializer(file).load(obj)
