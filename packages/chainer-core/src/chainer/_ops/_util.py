"""Small helpers shared by the core ops."""

from __future__ import annotations

import numpy

from chainer.utils import type_check

_ndarray = numpy.ndarray


def force_array(y, dtype=None):
    """NumPy turns 0-d results into scalars; ops must return arrays."""
    if type(y) is _ndarray:
        return y if dtype is None or y.dtype == dtype else y.astype(dtype)
    if isinstance(y, numpy.generic):
        return numpy.asarray(y, dtype=dtype)
    return y if dtype is None or y.dtype == dtype else y.astype(dtype)


def sum_to_array(x, shape: tuple):
    """Sum ``x`` down to ``shape`` (the inverse of broadcasting), on arrays."""
    if x.shape == shape:
        return x
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, n in enumerate(shape) if n == 1 and x.shape[i + lead] != 1
    )
    y = x.sum(axis=axes, keepdims=True)
    if lead:
        y = y.reshape(shape)
    return force_array(y)


def fail(expect: str, actual: str):
    """Raise ``InvalidType``; ``FunctionNode`` adds the function name and the inputs."""
    raise type_check.InvalidType(expect, actual)


def check_same_dtype(in_data: tuple) -> None:
    dtype = in_data[0].dtype
    for i, x in enumerate(in_data[1:], 1):
        if x.dtype != dtype:
            fail(f"in_types[0].dtype == in_types[{i}].dtype", f"{dtype} != {x.dtype}")


def check_float(in_data: tuple) -> None:
    for i, x in enumerate(in_data):
        if x.dtype.kind != "f":
            fail(f"in_types[{i}].dtype.kind == f", f"{x.dtype.kind} != f")


def check_broadcastable(in_data: tuple) -> None:
    try:
        numpy.broadcast_shapes(*(x.shape for x in in_data))
    except ValueError:
        shapes = ", ".join(str(x.shape) for x in in_data)
        fail("shapes are broadcastable", f"cannot broadcast {shapes}")
