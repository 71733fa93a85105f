"""Input checks shared by the linear-algebra functions."""

from __future__ import annotations

import numpy

from chainer.utils import type_check

_LAPACK_DTYPES = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))


def expect_square_matrices(a_type, ndim: int) -> None:
    """Type-check ``ndim``-D float32/float64 input whose last two axes have equal length."""
    dtype = type_check.eval(a_type.dtype)
    if dtype not in _LAPACK_DTYPES:
        raise type_check.InvalidType("a.dtype in (float32, float64)", f"a.dtype == {dtype}")
    type_check.expect(a_type.ndim == ndim)
    type_check.expect(a_type.shape[ndim - 2] == a_type.shape[ndim - 1])
