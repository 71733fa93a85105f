"""Parameters of a model as the communicators move them: collected, checked, packed."""

from __future__ import annotations

import zlib

import numpy

import chainer
from chainer import backend
from chainermn.communicators import _memory_utility


def collect_params(model, attr: str, zero_fill: bool = False) -> list:
    """``(name, param)`` pairs, sorted by name, whose ``attr`` ('array' or 'grad') is set.

    With ``zero_fill`` an initialized parameter without a gradient gets a zero one first.
    """
    pairs = []
    for name, param in sorted(model.namedparams(include_uninit=False), key=lambda p: p[0]):
        if attr == "grad" and param.grad is None:
            if not zero_fill:
                continue
            with param.device.create_context():
                param.grad = param.xp.zeros_like(param.array)
        pairs.append((name, param))
    return pairs


def layout(pairs: list, attr: str) -> list:
    """What every rank must agree on: names, shapes and dtypes of the arrays to move."""
    return layout_of([name for name, _ in pairs], [getattr(p, attr) for _, p in pairs])


def layout_of(names: list, arrays: list) -> list:
    """:func:`layout` of ``arrays`` named ``names``."""
    return [(name, a.shape, a.dtype.str) for name, a in zip(names, arrays)]


# Digests of recent layouts: a model's layout rarely changes, and hashing the tuple costs
# less than writing and checksumming its repr at every step.
_DIGESTS: dict = {}


def _digest(key: tuple) -> int:
    digest = _DIGESTS.get(key)
    if digest is None:
        if len(_DIGESTS) >= 64:
            _DIGESTS.clear()
        digest = _DIGESTS[key] = zlib.crc32(repr(key).encode())
    return digest


def check_same_layout(mpi_comm, pairs: list, attr: str, operation: str, flag=False) -> bool:
    """Raise the same ValueError on every rank when the ranks' models differ.

    Returns whether ``flag`` was set on any rank (see :func:`agree_on_layout`).
    """
    names = [name for name, _ in pairs]
    arrays = [getattr(p, attr) for _, p in pairs]
    return agree_on_layout(mpi_comm, names, arrays, operation, flag)[1]


def agree_on_layout(mpi_comm, names: list, arrays: list, operation: str, flag=False, report=0):
    """``(layout, any rank's flag, the largest report)``, the layout as a tuple; raises the
    same ValueError on every rank when the ranks' layouts differ.

    One tiny Allgather (count, elements, checksum, ``flag``, ``report``: an integer, such as
    the nanoseconds of this rank's previous average) per call; the full layouts are exchanged
    only to describe a mismatch, so a wrong model never hangs a collective.
    """
    key = tuple(layout_of(names, arrays))
    total = 0
    for a in arrays:
        total += a.size
    header = numpy.array([len(key), total, _digest(key), int(flag), report], numpy.int64)
    headers = numpy.empty((mpi_comm.Get_size(), 5), numpy.int64)
    mpi_comm.Allgather(header, headers)
    rows = headers.tolist()  # Python ints: cheaper to compare than NumPy calls at this size
    first = rows[0][:3]
    if all(row[:3] == first for row in rows):
        return key, any(row[3] for row in rows), max(row[4] for row in rows)
    layouts = mpi_comm.allgather(list(key))
    raise ValueError(f"{operation}: the ranks' models differ; " + _describe(layouts))


def _describe(layouts: list) -> str:
    reference = layouts[0]
    for rank, other in enumerate(layouts[1:], start=1):
        if other == reference:
            continue
        if len(other) != len(reference):
            return (
                f"rank 0 has {len(reference)} parameters {[n for n, _, _ in reference]} but "
                f"rank {rank} has {len(other)} {[n for n, _, _ in other]}"
            )
        for expected, actual in zip(reference, other):
            if expected != actual:
                return (
                    f"parameter {expected[0]} is {expected[1]} {numpy.dtype(expected[2])} on "
                    f"rank 0 but {actual[0]} {actual[1]} {numpy.dtype(actual[2])} on rank {rank}"
                )
    return "layouts differ"


def reduce_dtype(dtypes: list, configured) -> numpy.dtype:
    """The dtype gradients of ``dtypes`` travel in: the configured one, else at least
    float32."""
    if configured is not None:
        return numpy.dtype(configured)
    return numpy.result_type(numpy.float32, *set(dtypes))


def pack(arrays: list, dtype: numpy.dtype, rank: int, out=None) -> numpy.ndarray:
    """One flat host buffer of ``dtype`` holding ``arrays`` back to back (``out`` if given)."""
    total = sum(a.size for a in arrays)
    buffer = numpy.empty(total, dtype) if out is None else out
    if all(type(a) is numpy.ndarray for a in arrays):
        # One call copies (and casts, as assignment does) them all.
        return numpy.concatenate(arrays, axis=None, out=buffer, casting="unsafe")
    offset = 0
    for a in arrays:
        host = _memory_utility.to_host(a, "a parameter array", rank)
        buffer[offset : offset + host.size] = host.reshape(-1)
        offset += host.size
    return buffer


def unpack(buffer: numpy.ndarray, arrays: list, scale=None) -> None:
    """Write ``buffer`` (times ``scale``, if given) back into ``arrays`` (cast to their
    dtypes, on their devices)."""
    offset = 0
    for a in arrays:
        chunk = buffer[offset : offset + a.size].reshape(a.shape)
        offset += a.size
        if isinstance(a, numpy.ndarray):
            if scale is None:
                numpy.copyto(a, chunk, casting="unsafe")
            else:
                numpy.multiply(chunk, scale, out=a, casting="unsafe")
        else:
            chunk = chunk if scale is None else chunk * scale
            backend.copyto(a, chunk.astype(a.dtype, copy=False))


def unpack_views(views: list, arrays: list, scale) -> None:
    """Write each of ``views`` (slices of a reduced buffer, shaped like ``arrays``) times
    ``scale`` (None: as they are) into the matching array."""
    for view, a in zip(views, arrays):
        if type(a) is not numpy.ndarray:
            unpack(view.reshape(-1), [a], scale)
        elif scale is None:
            numpy.copyto(a, view, casting="unsafe")
        else:
            numpy.multiply(view, scale, out=a, casting="unsafe")


def check_finite(pairs: list, operation: str) -> None:
    """In debug mode, refuse gradients that became NaN or inf."""
    if not chainer.is_debug():
        return
    bad = [name for name, p in pairs if not bool(p.xp.isfinite(p.grad).all())]
    if bad:
        raise ValueError(f"{operation}: parameters diverged (NaN or inf gradients) in {bad}")
