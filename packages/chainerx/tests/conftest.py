"""Shared helpers of the chainerx tests."""

import numpy
import pytest

import chainerx

# Relative tolerance per dtype for results compared with NumPy's.
_RTOL = {"float16": 1e-3, "float32": 1e-6, "float64": 1e-7}


def _make_input(shape, dtype, *, low=-3.0, high=3.0, seed=0, layout="contiguous"):
    """A NumPy array and the same values as a chainerx array with the given memory layout.

    ``layout`` is ``'contiguous'``, ``'strided'`` (every other element along the last axis) or
    ``'transposed'``; the chainerx array is then a non-contiguous view, like the NumPy one.
    """
    rng = numpy.random.default_rng(seed)
    dtype = numpy.dtype(dtype)
    big_shape = (
        tuple(shape[:-1]) + (shape[-1] * 2,) if (layout == "strided" and shape) else tuple(shape)
    )
    if layout == "transposed":
        big_shape = tuple(reversed(shape))
    if dtype == numpy.bool_:
        base = rng.integers(0, 2, big_shape).astype(bool)
    elif dtype.kind in "iu":
        base = rng.integers(
            max(low, numpy.iinfo(dtype).min), min(high, numpy.iinfo(dtype).max) + 1, big_shape
        )
        base = base.astype(dtype)
    else:
        base = rng.uniform(low, high, big_shape).astype(dtype)
    chx_base = chainerx.array(base)
    if layout == "strided" and shape:
        return base[..., ::2], chx_base[..., ::2]
    if layout == "transposed":
        return base.T, chx_base.T
    return base, chx_base


@pytest.fixture(params=["contiguous", "strided", "transposed"])
def layout(request):
    return request.param


@pytest.fixture
def make_input():
    """The input factory: ``make_input(shape, dtype, low=..., high=..., seed=..., layout=...)``."""
    return _make_input


@pytest.fixture
def rtol():
    """Relative tolerance for a result dtype compared with NumPy (0 for exact dtypes)."""
    return lambda dtype: _RTOL.get(str(numpy.dtype(dtype)), 0.0)
