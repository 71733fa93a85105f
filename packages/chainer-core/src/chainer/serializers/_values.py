"""Conversion between the values objects serialize and the arrays stored in files.

Shared by the NPZ and HDF5 formats: :func:`to_numpy` turns what a serializer is given into a
NumPy array (or ``None``), :func:`restore` puts a loaded array back into what a deserializer
is given, checking shape and dtype first so that a mismatched file fails with the key named.
"""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend
from chainer.backends._cpu import array_to_cpu
from chainer.variable import Parameter, Variable


def to_numpy(key: str, value: Any) -> numpy.ndarray | None:
    """Return ``value`` (array of any device, Variable, scalar, string or None) as NumPy data.

    Raises:
        TypeError: ``value`` would need pickle to be stored (an object array).
    """
    if isinstance(value, Variable):
        value = value.array
    if value is None:
        return None
    if isinstance(value, backend.get_array_types()):
        array = array_to_cpu(value)
    else:
        array = numpy.asarray(value)
    if array.dtype.kind == "O":
        # Files are written and read without pickle, so arbitrary objects cannot round-trip.
        raise TypeError(
            f"cannot serialize {key!r}: expected an array, a Variable, a number, a string or "
            f"None, got {type(value).__module__}.{type(value).__name__}"
        )
    return array


def restore(key: str, value: Any, loaded: Any) -> Any:
    """Return the loaded value in the form ``value`` asks for.

    Args:
        key: Full name of the value, used in error messages.
        value: ``None`` (return ``loaded`` as an array), an array or Variable to fill in place
            (an uninitialized :class:`~chainer.Parameter` is initialized to the loaded shape
            first), or a scalar whose type the loaded value is converted to.
        loaded: The stored array, or ``None`` when ``None`` was saved.

    Returns:
        ``None`` if ``None`` was saved; otherwise ``value`` filled in place, the converted
        scalar, or the loaded array when ``value`` is ``None``.

    Raises:
        ValueError: The stored shape or dtype does not fit ``value``.
        TypeError: A stored number does not convert to a scalar ``value``'s type without loss.
    """
    if loaded is None:
        return None
    if not isinstance(loaded, backend.get_array_types()):
        loaded = numpy.asarray(loaded)
    if value is None:
        return loaded
    if isinstance(value, Variable):
        if value.array is None:
            _initialize(key, value, loaded)
        _copy_into(key, value.array, loaded)
        return value
    if isinstance(value, backend.get_array_types()):
        _copy_into(key, value, loaded)
        return value
    return _convert_scalar(key, value, loaded)


def check_stored(key: str, value: Any, shape: tuple, dtype: numpy.dtype) -> None:
    """Raise what :func:`restore` would raise for a stored array of ``shape`` and ``dtype``.

    Lets a reader refuse a value before reading (and allocating) its data.
    """
    if isinstance(value, Variable):
        value = value.array
    if value is None or isinstance(value, (list, tuple)):
        return
    if isinstance(value, backend.get_array_types()):
        array: Any = value
        _check_fits(key, array.shape, array.dtype, shape, dtype)
    elif len(shape) != 0:
        _raise_not_scalar(key, type(value), shape, dtype)


def _initialize(key: str, variable: Variable, loaded) -> None:
    if isinstance(variable, Parameter):
        # Check before initializing, so a bad file leaves the parameter uninitialized.
        _check_fits(key, loaded.shape, variable.dtype, loaded.shape, loaded.dtype)
        variable.initialize(loaded.shape)
    else:
        variable.array = loaded.copy()


def _copy_into(key: str, target, loaded) -> None:
    _check_fits(key, target.shape, target.dtype, loaded.shape, loaded.dtype)
    backend.copyto(target, loaded)


def _check_fits(key: str, shape, dtype, stored_shape, stored_dtype) -> None:
    # ChainerX dtypes are not NumPy dtypes; both have the NumPy name.
    expected_dtype = numpy.dtype(getattr(dtype, "name", dtype))
    if tuple(stored_shape) == tuple(shape) and numpy.can_cast(
        stored_dtype, expected_dtype, "same_kind"
    ):
        return
    raise ValueError(
        f"cannot load {key!r}: expected shape {tuple(shape)} and dtype {expected_dtype}, found "
        f"shape {tuple(stored_shape)} and dtype {stored_dtype} (the dtype must cast to "
        "the expected one within its kind)"
    )


def _raise_not_scalar(key: str, kind: type, shape, dtype) -> None:
    raise ValueError(
        f"cannot load {key!r}: expected a scalar ({kind.__name__}), found an array of "
        f"shape {tuple(shape)} and dtype {dtype}"
    )


def _convert_scalar(key: str, value: Any, loaded) -> Any:
    kind = type(value)
    if isinstance(value, (list, tuple)):
        return kind(loaded.tolist())
    if loaded.ndim != 0:
        _raise_not_scalar(key, kind, loaded.shape, loaded.dtype)
    stored = numpy.dtype(loaded.dtype)
    if (
        stored.kind in "biufc"
        and not (stored.kind in "biu" and issubclass(kind, int))
        and not numpy.can_cast(stored, kind)
    ):
        # v7: a lossy conversion (float into int, int64 into a narrower NumPy int) is refused.
        raise TypeError(
            f"cannot load {key!r}: the stored {stored} value does not safely convert to "
            f"{kind.__name__}"
        )
    item = loaded.item()
    try:
        return kind(item)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"cannot load {key!r}: the stored {loaded.dtype} value {item!r} does not convert "
            f"to {kind.__name__}"
        ) from exc
