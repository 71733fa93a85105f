"""Utilities shared by Chainer's functions, links and extensions.

Submodules: ``type_check`` (input checks of functions), ``argument`` (keyword options),
``array``, ``conv`` / ``conv_nd`` / ``conv_nd_kernel`` (im2col lowering), ``sparse`` (COO
matrices), ``walker_alias`` (alias-method sampling), ``meta`` (final methods), ``cache``,
``error``, ``imgproc``, ``precision``, ``experimental`` and ``nondeterministic`` (warnings).
"""

from __future__ import annotations

import collections.abc as collections_abc  # v7's name for it (its tests and users reach it here)
import contextlib
import importlib
from collections.abc import Iterator
from typing import Any

import numpy

from chainer.utils import (
    argument,
    array,
    cache,
    conv,
    conv_nd,
    conv_nd_kernel,
    error,
    imgproc,
    meta,
    precision,
    sparse,
    type_check,
)
from chainer.utils.array import size_of_shape, sum_to
from chainer.utils.conv import get_conv_outsize, get_deconv_outsize
from chainer.utils.experimental import experimental
from chainer.utils.meta import enable_final, final
from chainer.utils.nondeterministic import nondeterministic
from chainer.utils.sparse import CooMatrix, get_order, to_coo


def force_array(x: Any, dtype: Any = None) -> Any:
    """Return ``x`` as an array, turning Python and NumPy scalars into 0-dim NumPy arrays.

    NumPy operations on 0-dim arrays return scalars, but a function's outputs must be arrays.

    Args:
        x: An array or a scalar.
        dtype: The dtype to cast to (without copying when it already matches); ``None`` keeps it.
    """
    if numpy.isscalar(x):
        return numpy.array(x, dtype)
    if dtype is None:
        return x
    return x.astype(dtype, copy=False)


def force_type(dtype: Any, value: Any) -> Any:
    """Return ``value`` (a scalar or an array) with the dtype ``dtype``.

    A scalar becomes a NumPy scalar of ``dtype``; an array is cast only when its dtype differs.
    """
    dtype = numpy.dtype(dtype)
    if numpy.isscalar(value):
        return dtype.type(value)
    if value.dtype != dtype:
        return value.astype(dtype, copy=False)
    return value


@contextlib.contextmanager
def tempdir(**kwargs: Any) -> Iterator[str]:
    """Create a temporary directory for a ``with`` block and remove it with its contents after.

    Args:
        kwargs: Passed to :func:`tempfile.mkdtemp` (``suffix``, ``prefix``, ``dir``).

    Example:
        >>> import os
        >>> with chainer.utils.tempdir() as path:
        ...     chainer.serializers.save_npz(os.path.join(path, 'model.npz'), L.Linear(3, 2))
        >>> os.path.exists(path)
        False
    """
    # Imported here: they are slow to import and rarely needed by `import chainer`.
    import shutil
    import tempfile

    path = tempfile.mkdtemp(**kwargs)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def __getattr__(name: str) -> Any:
    # walker_alias builds on chainer.device_resident, which imports chainer.utils: importing it
    # on first use keeps the import graph free of cycles.
    if name in ("WalkerAlias", "walker_alias"):
        # import_module, not "from chainer.utils import ...", which would call this hook again.
        walker_alias = importlib.import_module("chainer.utils.walker_alias")
        globals()["WalkerAlias"] = walker_alias.WalkerAlias
        return globals()[name]
    raise AttributeError(f"module 'chainer.utils' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | {"WalkerAlias", "walker_alias"})
