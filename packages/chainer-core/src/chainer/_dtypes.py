"""The default-dtype helpers: ``chainer.get_dtype`` and the ``mixed16`` pseudo dtype."""

from __future__ import annotations

import numpy


class _Mixed16:
    """``chainer.mixed16``: compute in float16, keep parameters and updates in float32."""

    __slots__ = ()
    dtype = numpy.dtype(numpy.float16)

    def __repr__(self) -> str:
        return "dtype(mixed16)"

    def __reduce__(self):
        return "mixed16"


mixed16 = _Mixed16()


def get_dtype(dtype=None, map_mixed16=None) -> numpy.dtype:
    """Resolve ``dtype`` (``None`` means ``chainer.config.dtype``) to a NumPy dtype.

    Args:
        dtype: A dtype specifier, ``chainer.mixed16`` or ``None`` for the configured default.
        map_mixed16: The dtype ``mixed16`` maps to; ``None`` means float16.
    """
    if dtype is None:
        from chainer.configuration import config

        dtype = config.dtype
    if dtype is mixed16:
        return numpy.dtype(map_mixed16 if map_mixed16 is not None else numpy.float16)
    return numpy.dtype(dtype)
