"""Input checks shared by the linear-algebra functions."""

from __future__ import annotations

import numpy

from chainer.utils import type_check

_LAPACK_DTYPES = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))


def expect_square_matrices(a_type, ndim: int, half: bool = False) -> None:
    """Type-check ``ndim``-D float32/float64 input whose last two axes have equal length.

    With ``half``, float16 is accepted too (see :func:`lapack_array`).
    """
    dtype = type_check.eval(a_type.dtype)
    if dtype not in _LAPACK_DTYPES and not (half and dtype == numpy.float16):
        expected = "(float16, float32, float64)" if half else "(float32, float64)"
        raise type_check.InvalidType(f"a.dtype in {expected}", f"a.dtype == {dtype}")
    type_check.expect(a_type.ndim == ndim)
    type_check.expect(a_type.shape[ndim - 2] == a_type.shape[ndim - 1])


def lapack_array(a):
    """``a`` in a dtype LAPACK routines take: float16 is computed in float32."""
    return a.astype(numpy.float32) if a.dtype == numpy.float16 else a
