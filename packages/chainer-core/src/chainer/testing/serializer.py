"""Round-trip serializable objects (links, optimizers, ...) through a file in tests."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from typing import Any


def save_and_load(
    src: Any,
    dst: Any,
    filename: str | os.PathLike,
    saver: Callable[[Any, Any], Any],
    loader: Callable[[Any, Any], Any],
) -> None:
    """Save ``src`` to ``filename`` with ``saver``, then load that file into ``dst``.

    Args:
        src: The object to save.
        dst: The object to load into.
        filename: The file to use.
        saver: Called as ``saver(filename, src)``, like ``chainer.serializers.save_npz``.
        loader: Called as ``loader(filename, dst)``, like ``chainer.serializers.load_npz``.
    """
    saver(filename, src)
    loader(filename, dst)


def _round_trip(src: Any, dst: Any, suffix: str, saver_name: str, loader_name: str) -> None:
    from chainer import serializers

    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "saved" + suffix)
        save_and_load(
            src, dst, path, getattr(serializers, saver_name), getattr(serializers, loader_name)
        )


def save_and_load_npz(src: Any, dst: Any) -> None:
    """Save ``src`` to a temporary NPZ file and load it into ``dst``
    (``chainer.serializers.save_npz`` / ``load_npz``); the file is removed afterwards."""
    _round_trip(src, dst, ".npz", "save_npz", "load_npz")


def save_and_load_hdf5(src: Any, dst: Any) -> None:
    """Save ``src`` to a temporary HDF5 file and load it into ``dst``
    (``chainer.serializers.save_hdf5`` / ``load_hdf5``, which need h5py); the file is removed
    afterwards."""
    _round_trip(src, dst, ".h5", "save_hdf5", "load_hdf5")
