"""Moving examples from worker processes to the parent through shared memory.

Each batch in flight owns a block of shared memory with one slot of ``slot_bytes`` per
example. A worker copies the NumPy arrays of an example into the example's slot and sends
only a small template (the example with each array replaced by an :class:`_InBlock` note);
the parent copies the arrays out. An example whose arrays do not fit is sent pickled, and
the worker reports how many bytes it would have needed, so the parent can size later blocks.
"""

from __future__ import annotations

import os
import sys
from multiprocessing import shared_memory
from typing import Any, NamedTuple

import numpy

_ALIGNMENT = 64


class _InBlock(NamedTuple):
    """Where an array of an example lies in its slot."""

    offset: int
    shape: tuple
    dtype: numpy.dtype


def aligned(nbytes: int) -> int:
    return -(-nbytes // _ALIGNMENT) * _ALIGNMENT


def _arrays(obj: Any) -> list[numpy.ndarray]:
    if type(obj) is numpy.ndarray:
        return [obj] if obj.dtype.kind != "O" and obj.size else []
    if type(obj) in (tuple, list):
        return [array for item in obj for array in _arrays(item)]
    if type(obj) is dict:
        return [array for item in obj.values() for array in _arrays(item)]
    return []


def needed_bytes(example: Any) -> int:
    """The slot size the arrays of ``example`` need."""
    return sum(aligned(array.nbytes) for array in _arrays(example))


def pack(
    example: Any, buffer: memoryview | None, position: int, slot_bytes: int
) -> tuple[Any, int]:
    """Copy the arrays of ``example`` into slot ``position`` of ``buffer`` if they fit.

    Returns:
        The template to send (the example itself when it does not fit) and the bytes needed.
    """
    need = needed_bytes(example)
    if buffer is None or need == 0 or need > slot_bytes:
        return example, need
    base = position * slot_bytes
    cursor = [base]

    def place(obj: Any) -> Any:
        if type(obj) is numpy.ndarray and obj.dtype.kind != "O" and obj.size:
            offset = cursor[0]
            numpy.ndarray(obj.shape, obj.dtype, buffer, offset)[...] = obj
            cursor[0] += aligned(obj.nbytes)
            return _InBlock(offset - base, obj.shape, obj.dtype)
        if type(obj) in (tuple, list):
            return type(obj)(place(item) for item in obj)
        if type(obj) is dict:
            return {key: place(item) for key, item in obj.items()}
        return obj

    return place(example), need


def unpack(template: Any, buffer: memoryview | None, position: int, slot_bytes: int) -> Any:
    """Rebuild an example from its template, copying its arrays out of slot ``position``."""
    base = position * slot_bytes

    def restore(obj: Any) -> Any:
        if type(obj) is _InBlock:
            return numpy.ndarray(obj.shape, obj.dtype, buffer, base + obj.offset).copy()
        if type(obj) in (tuple, list):
            return type(obj)(restore(item) for item in obj)
        if type(obj) is dict:
            return {key: restore(item) for key, item in obj.items()}
        return obj

    return restore(template)


def create_block(size: int) -> shared_memory.SharedMemory | None:
    """A new shared memory block, or ``None`` when the system has no room for it.

    On Linux, blocks live in ``/dev/shm``, often a small file system in containers; writing
    past its free space would kill the worker with SIGBUS, so a block is only made when
    there is room.
    """
    if sys.platform.startswith("linux") and os.path.isdir("/dev/shm"):
        stats = os.statvfs("/dev/shm")
        if stats.f_bavail * stats.f_frsize < 2 * size:
            return None
    try:
        return shared_memory.SharedMemory(create=True, size=size)
    except OSError:
        return None


class AttachedBlocks:
    """The blocks a worker has attached to, by name (a bounded, least-recently-used cache)."""

    def __init__(self, capacity: int = 8) -> None:
        self._capacity = capacity
        self._blocks: dict[str, shared_memory.SharedMemory] = {}

    def buffer(self, name: str | None) -> memoryview | None:
        if name is None:
            return None
        block = self._blocks.pop(name, None)
        if block is None:
            try:
                block = _attach(name)
            except FileNotFoundError:  # released by the parent meanwhile: send pickled
                return None
            if len(self._blocks) >= self._capacity:
                self._blocks.pop(next(iter(self._blocks))).close()
        self._blocks[name] = block
        return block.buf

    def close(self) -> None:
        for block in self._blocks.values():
            block.close()
        self._blocks.clear()


def _attach(name: str) -> shared_memory.SharedMemory:
    if sys.version_info >= (3, 13):
        # The parent owns the block; a worker must not ask the resource tracker to free it.
        return shared_memory.SharedMemory(name, track=False)
    # Before 3.13 attaching registers the block with the resource tracker that the workers
    # share with the parent (started by the parent first); the parent's unlink unregisters it.
    return shared_memory.SharedMemory(name)
