"""Serialization in NumPy's NPZ format.

Saving takes two steps, because an NPZ archive cannot be written value by value:
:class:`DictionarySerializer` first packs an object into a flat dictionary whose keys are
``/``-separated paths (``'l1/W'``), then :func:`save_npz` writes that dictionary as an archive
of ``.npy`` members. :class:`NpzDeserializer` reads such an archive (or any mapping of keys to
arrays) back into an object.

Files never contain pickles: ``None`` is stored as a 0-d structured array with one field named
``chainer_none`` (readable by plain ``numpy.load``), values that would need pickle are refused
when saving, and archives are always opened with ``allow_pickle=False``.

Example:
    >>> model = chainer.links.Linear(3, 2)
    >>> chainer.serializers.save_npz('model.npz', model)
    >>> chainer.serializers.load_npz('model.npz', model)
"""

from __future__ import annotations

import contextlib
import copy
import math
import os
import zipfile
import zlib
from collections.abc import Callable, Iterable, Mapping
from typing import IO, Any

import numpy
import numpy.lib.format
from numpy.lib.npyio import NpzFile

from chainer.serializer import Deserializer, Serializer
from chainer.serializers._atomic import atomic_write
from chainer.serializers._values import check_stored, restore, to_numpy

_NONE_DTYPE = numpy.dtype([("chainer_none", "u1")])
_NONE = numpy.zeros((), dtype=_NONE_DTYPE)
# What reading a damaged archive member can raise (numpy, zipfile and zlib errors; zipfile
# raises NotImplementedError for an unknown compression or version, RuntimeError for an
# encrypted member).
_READ_ERRORS = (
    ValueError,
    OSError,
    EOFError,
    zipfile.BadZipFile,
    zlib.error,
    NotImplementedError,
    RuntimeError,
)

_IgnoreName = str | Callable[[str], bool]
_IgnoreNames = _IgnoreName | Iterable[_IgnoreName]


class DictionarySerializer(Serializer):
    """Serializer that packs an object into a flat dictionary of NumPy arrays.

    Args:
        target: The dictionary to fill; a new one is created when ``None``.
        path: Prefix of every key this serializer writes (``'predictor/'`` for a child).

    Attributes:
        target: The dictionary: full key (``'l1/W'``) to NumPy array. Arrays of other devices
            are copied to the host; NumPy arrays are stored as they are, without a copy.
        path: The key prefix.

    Example:
        >>> model = L.Linear(3, 2)
        >>> serializer = DictionarySerializer()
        >>> serializer.save(model)
        >>> sorted(serializer.target)
        ['W', 'b']
        >>> numpy.savez('model.npz', **serializer.target)
    """

    def __init__(self, target: dict | None = None, path: str = "") -> None:
        self.target = {} if target is None else target
        self.path = path

    def __getitem__(self, key: str) -> DictionarySerializer:
        return DictionarySerializer(self.target, self.path + key.strip("/") + "/")

    def __call__(self, key: str, value: Any) -> Any:
        """Store ``value`` under ``path + key`` and return ``value`` unchanged."""
        full_key = self.path + key.lstrip("/")
        array = to_numpy(full_key, value)
        self.target[full_key] = _NONE if array is None else array
        return value


class NpzDeserializer(Deserializer):
    """Deserializer that loads an object from an NPZ archive or a mapping of arrays.

    Args:
        npz: An opened archive (what ``numpy.load`` returns for ``.npz`` files) or any mapping
            from full keys to arrays, e.g. a :class:`DictionarySerializer`'s ``target``. The
            members of an archive opened with ``allow_pickle=False`` are checked against
            their size and the target before their data is read; one opened with
            ``allow_pickle=True`` is read as NumPy reads it.
        path: Prefix of the keys to read, to load from a sub-tree of the archive (for example
            ``'updater/model:main/'`` to load a model out of a trainer snapshot).
        strict: If ``True``, a key missing from the archive raises :class:`KeyError`;
            otherwise the value is left unchanged.
        ignore_names: Keys to skip: a name, a callable taking a name and returning ``True``
            to skip it, or a list of names and callables. Names are relative to ``path``
            (``'l1/W'``, not ``'updater/model:main/l1/W'``).
    """

    def __init__(
        self,
        npz: Mapping[str, Any],
        path: str = "",
        strict: bool = True,
        ignore_names: _IgnoreNames | None = None,
    ) -> None:
        self.npz = npz
        self.path = path
        self.strict = strict
        self.ignore_names = ignore_names
        self._root = path
        self._skip_rules = _skip_rules(ignore_names)

    def __getitem__(self, key: str) -> NpzDeserializer:
        child = copy.copy(self)
        child.path = self.path + key.strip("/") + "/"
        return child

    def __call__(self, key: str, value: Any) -> Any:
        """Load the value under ``path + key``; see :meth:`chainer.AbstractSerializer.__call__`."""
        full_key = self.path + key.lstrip("/")
        if self._is_ignored(full_key[len(self._root) :]):
            return value
        if full_key not in self.npz:
            if self.strict:
                raise KeyError(self._missing_message(full_key))
            return value
        return restore(full_key, value, self._read(full_key, value))

    def _is_ignored(self, name: str) -> bool:
        return any(rule(name) if callable(rule) else rule == name for rule in self._skip_rules)

    def _read(self, full_key: str, value: Any):
        try:
            # An archive opened with allow_pickle=True (by the caller: load_npz never does)
            # is read as NumPy reads it, object arrays included.
            npz = self.npz
            if isinstance(npz, NpzFile) and npz.zip is not None and not npz.allow_pickle:
                stored = _read_member(npz.zip, full_key, value)
            else:
                stored = self.npz[full_key]
        except _READ_ERRORS as exc:
            raise ValueError(f"cannot read {full_key!r} from the NPZ data: {exc}") from exc
        return None if _holds_none(stored) else stored

    def _missing_message(self, full_key: str) -> str:
        hint = ""
        if self._root and not self._root.endswith("/"):
            hint = f"; path={self._root!r} usually ends with '/'"
        return (
            f"{full_key!r} is not in the NPZ data{hint}; pass strict=False to leave missing "
            "values unchanged"
        )


def save_npz(file: str | os.PathLike | IO[bytes], obj: Any, compression: bool = True) -> None:
    """Save an object to a file in NPZ format.

    A file name is written atomically: the archive goes to a temporary file in the same
    directory that replaces ``file`` only once it is complete and on disk, so a failure while
    saving leaves any previous file intact. A file object is written to directly.

    Args:
        file: File name, path object or binary file object to write to.
        obj: Object to save; it must implement ``serialize(serializer)``.
        compression: Whether to compress the archive members (zip deflate).
    """
    arrays = serialize(obj)
    if isinstance(file, (str, os.PathLike)):
        with atomic_write(file) as temp_path, open(temp_path, "wb") as stream:
            _write_archive(stream, arrays, compression)
    else:
        _write_archive(file, arrays, compression)


def serialize(obj: Any) -> dict:
    """The values of ``obj`` as one flat dict (``'path/to/name'`` -> array), as
    :func:`save_npz` writes them.

    Args:
        obj: Object to serialize; it must implement ``serialize(serializer)``.

    Example:
        >>> sorted(chainer.serializers.npz.serialize(chainer.links.Linear(2, 3)))
        ['W', 'b']
    """
    serializer = DictionarySerializer()
    serializer.save(obj)
    return serializer.target


def _write_archive(stream: IO[bytes], arrays: Mapping[str, Any], compression: bool) -> None:
    # The archive is written here rather than by numpy.savez, whose keyword arguments would
    # clash with values named 'file' or 'allow_pickle'; the layout is the same.
    method = zipfile.ZIP_DEFLATED if compression else zipfile.ZIP_STORED
    with zipfile.ZipFile(stream, mode="w", compression=method, allowZip64=True) as archive:
        for key, array in arrays.items():
            with archive.open(key + ".npy", mode="w", force_zip64=True) as member:
                numpy.lib.format.write_array(member, numpy.asanyarray(array), allow_pickle=False)


def load_npz(
    file: str | os.PathLike | IO[bytes],
    obj: Any,
    path: str = "",
    strict: bool = True,
    ignore_names: _IgnoreNames | None = None,
) -> None:
    """Load an object from a file in NPZ format.

    Args:
        file: File name, path object or binary file object to read from.
        obj: Object to load into; it must implement ``serialize(serializer)``.
        path: Prefix of the keys to read (e.g. ``'updater/model:main/'`` for a model inside a
            trainer snapshot).
        strict: If ``True``, a value missing from the file raises :class:`KeyError`.
        ignore_names: Names to skip; see :class:`NpzDeserializer`.

    Raises:
        ValueError: The file is not an NPZ archive, is damaged, or holds a value whose shape
            or dtype does not fit the object (the message names the key).
        KeyError: ``strict`` is ``True`` and a value is missing.

    Example:
        Load one child of a saved chain (a trainer snapshot holds the main model under
        ``path='updater/model:main/'``):

        >>> chainer.serializers.save_npz('classifier.npz', L.Classifier(L.Linear(3, 2)))
        >>> model = L.Linear(3, 2)
        >>> chainer.serializers.load_npz('classifier.npz', model, path='predictor/')
    """
    with contextlib.ExitStack() as stack:
        if isinstance(file, (str, os.PathLike)):
            name = repr(os.fspath(file))
            # Opened here rather than by numpy.load, which leaks the handle of a damaged file.
            file = stack.enter_context(open(file, "rb"))
        else:
            name = "the file object"
        archive = stack.enter_context(_open_archive(file, name))
        NpzDeserializer(archive, path=path, strict=strict, ignore_names=ignore_names).load(obj)


def _open_archive(stream: IO[bytes], name: str) -> NpzFile:
    try:
        loaded = numpy.load(stream, allow_pickle=False)
    except _READ_ERRORS as exc:
        raise ValueError(f"{name} is not a readable NPZ archive: {exc}") from exc
    if not isinstance(loaded, NpzFile):
        raise ValueError(
            f"{name} is not an NPZ archive: it holds a single array of shape "
            f"{getattr(loaded, 'shape', None)}; save objects with chainer.serializers.save_npz"
        )
    return loaded


def _read_member(archive: zipfile.ZipFile, key: str, value: Any) -> numpy.ndarray:
    """Read the ``.npy`` member ``key`` of an archive for ``value``, checking before reading.

    The header is checked against the member's size and against what ``value`` accepts
    before any data is read, so a damaged or hostile member (a shape that does not fit, a
    header announcing more data than the member holds, a small member that inflates to
    gigabytes) fails without allocating more than the value itself needs.
    """
    names = archive.namelist()
    if key in names and key + ".npy" in names:
        raise ValueError(f"the archive has two members for it, {key!r} and {key + '.npy'!r}")
    member = key + ".npy" if key + ".npy" in names else key
    info = archive.getinfo(member)
    with archive.open(info) as stream:
        version = numpy.lib.format.read_magic(stream)
        if version == (1, 0):
            shape, fortran_order, dtype = numpy.lib.format.read_array_header_1_0(stream)
        elif version == (2, 0):
            shape, fortran_order, dtype = numpy.lib.format.read_array_header_2_0(stream)
        else:
            raise ValueError(f"unsupported .npy format version {version}")
        if dtype.hasobject:
            raise ValueError(
                f"it holds Python objects (dtype {dtype}), which load_npz never unpickles"
            )
        if dtype == _NONE_DTYPE and shape == ():
            return _NONE
        size = math.prod(shape) * dtype.itemsize
        held = info.file_size - stream.tell()
        if held != size:
            raise ValueError(
                f"the header announces shape {shape} of {dtype} ({size} bytes) but the member "
                f"holds {held} bytes of data"
            )
        check_stored(key, value, shape, dtype)
        data = numpy.empty(size, numpy.uint8)
        chunk = 2**20
        for start in range(0, size, chunk):
            part = stream.read(min(chunk, size - start))
            data[start : start + len(part)] = numpy.frombuffer(part, numpy.uint8)
            if len(part) < min(chunk, size - start):
                raise ValueError(f"the member ends after {start + len(part)} of {size} bytes")
        if stream.read(1):  # also reaches the end, where zipfile checks the CRC
            raise ValueError(f"the member holds more than the {size} bytes of data announced")
    if dtype.itemsize == 0:
        return numpy.empty(shape, dtype)
    array = data.view(dtype)
    return array.reshape(shape[::-1]).T if fortran_order else array.reshape(shape)


def _holds_none(stored) -> bool:
    # Besides the marker, a mapping built by hand may hold None itself or numpy.asarray(None).
    dtype = getattr(stored, "dtype", None)
    if dtype is None:
        return stored is None
    if dtype == _NONE_DTYPE:
        return True
    return dtype.kind == "O" and stored.ndim == 0 and stored[()] is None


def _skip_rules(ignore_names) -> tuple:
    if ignore_names is None:
        return ()
    if isinstance(ignore_names, str) or callable(ignore_names):
        rules = (ignore_names,)
    else:
        rules = tuple(ignore_names)
    for rule in rules:
        if not (isinstance(rule, str) or callable(rule)):
            raise TypeError(
                "ignore_names must be a name, a callable taking a name, or a list of them; "
                f"got an item of type {type(rule).__name__}: {rule!r}"
            )
    return rules
