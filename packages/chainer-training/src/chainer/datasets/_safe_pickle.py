"""An unpickler that loads plain data only, so that unpickling runs no code of the file's.

Plain data: None, booleans, numbers, strings, bytes, bytearrays, tuples, lists, dicts, sets,
frozensets, slices, and NumPy arrays (of plain data), dtypes and scalars.
Every other global a pickle names is refused with :class:`pickle.UnpicklingError`.
"""

from __future__ import annotations

import codecs
import pickle
import struct
from typing import IO, Any

import numpy


class _ArrayClass:
    """Stands for ``numpy.ndarray`` in a pickle: an argument of ``_reconstruct`` only, so
    that a pickle cannot call ``ndarray(shape)`` to allocate any size it names."""


def _reconstruct(subtype: Any, shape: Any, dtype: Any) -> numpy.ndarray:
    # NumPy's reduction always reconstructs an empty array that BUILD then fills with data.
    if subtype is not _ArrayClass or tuple(shape) != (0,):
        raise pickle.UnpicklingError(
            f"refusing to reconstruct an array of shape {shape!r}: expected ndarray, (0,)"
        )
    return numpy.ndarray.__reduce__(numpy.empty(0))[0](numpy.ndarray, (0,), dtype)


def _dtype(spec: Any, align: Any = False, copy: Any = False) -> numpy.dtype:
    if not (isinstance(spec, str) and isinstance(align, bool) and isinstance(copy, bool)):
        raise pickle.UnpicklingError(f"refusing to unpickle dtype{(spec, align, copy)!r}")
    return numpy.dtype(spec, align, copy)


def _numpy_functions() -> dict[tuple[str, str], Any]:
    # NumPy's (private) reconstruction functions are named from their reductions rather than
    # imported from private modules, whose paths differ between NumPy 1 and 2; pickles may
    # name either path. Their results are bounded by the data in the pickle.
    functions = {
        "_reconstruct": (numpy.ndarray.__reduce__(numpy.empty(0))[0], _reconstruct),
        "scalar": (numpy.float64(0).__reduce__()[0],) * 2,
        "_frombuffer": (numpy.empty(1).__reduce_ex__(5)[0],) * 2,  # protocol 5
    }
    table = {}
    for name, (original, function) in functions.items():
        submodule = original.__module__.rsplit(".", 1)[-1]
        for package in ("numpy.core", "numpy._core"):
            table[package + "." + submodule, name] = function
    return table


def _encode_latin1(text: str, encoding: str = "latin1") -> bytes:
    # Protocol-2 pickles written by Python 3 spell byte strings as _codecs.encode(text,
    # 'latin1') calls; any other codec is refused (a codec lookup can import modules).
    if encoding not in ("latin1", "latin-1"):
        raise pickle.UnpicklingError(f"refusing to unpickle bytes in the codec {encoding!r}")
    return codecs.encode(text, "latin1")


_PLAIN = {
    ("numpy", "ndarray"): _ArrayClass,
    ("numpy", "dtype"): _dtype,
    ("_codecs", "encode"): _encode_latin1,
    **{("builtins", t.__name__): t for t in (complex, set, frozenset, bytearray, slice)},
    **_numpy_functions(),
}

# What a damaged pickle can make the unpickler raise, besides UnpicklingError.
DAMAGED_PICKLE_ERRORS = (
    ValueError,
    TypeError,
    KeyError,
    IndexError,
    AttributeError,
    EOFError,
    OverflowError,
    MemoryError,
    RecursionError,
    struct.error,
)
_CHUNK = 2**20


def _rebuild_dtype(base: numpy.dtype, state: Any) -> numpy.dtype:
    """The dtype that ``base.__setstate__(state)`` would make, built through public NumPy
    constructors; a state that does not describe one exactly is refused."""
    if not isinstance(state, tuple) or len(state) != 8 or state[1] not in ("<", ">", "|"):
        raise pickle.UnpicklingError(f"refusing to unpickle a dtype with the state {state!r}")
    _, order, subarray, names, fields, itemsize, _, _ = state
    if subarray is not None:
        built = numpy.dtype(tuple(subarray))
    elif names is not None:
        described = [fields[name] for name in names]
        if any(len(field) != 2 for field in described):
            raise pickle.UnpicklingError("refusing to unpickle a dtype with field titles")
        built = numpy.dtype(
            {
                "names": list(names),
                "formats": [field[0] for field in described],
                "offsets": [field[1] for field in described],
                "itemsize": itemsize,
            }
        )
    else:
        built = base.newbyteorder(order) if order != "|" else base
    if built.__reduce__()[2] != state:
        raise pickle.UnpicklingError(f"refusing to unpickle a dtype with the state {state!r}")
    return built


class _BoundedReader:
    """The reads of the unpickler, made in chunks: a length field claiming gigabytes
    allocates no more than the data that is there, and a short read is an error."""

    def __init__(self, file: IO[bytes]) -> None:
        self._file = file
        self.readline = file.readline

    def read(self, size: int) -> bytes:
        parts, left = [], size
        while left > 0:
            part = self._file.read(min(left, _CHUNK))
            if not part:
                break
            parts.append(part)
            left -= len(part)
        data = b"".join(parts)
        if 1 < size != len(data):  # read(1) returns b'' at the end: the unpickler's EOFError
            raise pickle.UnpicklingError(f"pickle data was truncated: {len(data)} of {size}")
        return data


class PlainDataUnpickler(pickle._Unpickler):
    """Unpickles plain data only (see the module docstring); refuses any other global.

    It is Python's own unpickler in pure Python (``pickle._Unpickler``) rather than the C
    one, whose memo grows to any index a damaged file names (gigabytes for a few bytes);
    the only opcode that would allocate a stated size up front, BYTEARRAY8, reads first.

    Args:
        file: The binary file to read.
        refusal_hint: Appended to the message of a refused global (what to do instead).
        kwargs: Passed to :class:`pickle.Unpickler` (``encoding``, ...).
    """

    dispatch = dict(pickle._Unpickler.dispatch)

    def __init__(self, file: IO[bytes], refusal_hint: str = "", **kwargs: Any) -> None:
        super().__init__(_BoundedReader(file), **kwargs)
        self._refusal_hint = refusal_hint

    def find_class(self, module: str, name: str) -> Any:
        try:
            return _PLAIN[module, name]
        except KeyError:
            raise pickle.UnpicklingError(
                f"refusing to unpickle {module}.{name}: only plain data (numbers, strings, "
                f"containers, NumPy arrays) is loaded{self._refusal_hint}"
            ) from None

    def load(self) -> Any:
        """Unpickle one object; a damaged pickle raises :class:`pickle.UnpicklingError`
        (:class:`EOFError` when the file ends before the pickle starts)."""
        try:
            return super().load()
        except (pickle.UnpicklingError, EOFError):
            raise
        except DAMAGED_PICKLE_ERRORS as error:
            raise pickle.UnpicklingError(
                f"damaged pickle: {type(error).__name__}: {error}"
            ) from error

    def _load_build(self) -> None:
        # NumPy trusts a dtype's pickled state (a damaged one breaks NumPy internals), so a
        # dtype is built anew from what the state describes and must pickle to that state.
        if len(self.stack) < 2 or not isinstance(self.stack[-2], numpy.dtype):
            pickle._Unpickler.load_build(self)
            return
        state = self.stack.pop()
        unbuilt = self.stack[-1]
        self.stack[-1] = built = _rebuild_dtype(unbuilt, state)
        for key, value in list(self.memo.items()):
            if value is unbuilt:
                self.memo[key] = built

    dispatch[pickle.BUILD[0]] = _load_build

    def _load_bytearray8(self) -> None:
        (size,) = struct.unpack("<Q", self.read(8))
        self.append(bytearray(self.read(size)))

    dispatch[pickle.BYTEARRAY8[0]] = _load_bytearray8
