"""Shared settings of the normalization tests: dtypes and float16 tolerances."""

import numpy

FLOAT_DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def loosen_for_float16(case, forward=None, backward=None) -> None:
    """float16 needs looser tolerances and a finite-difference step above its resolution.

    Normalizations divide by a standard deviation computed from the inputs, which magnifies
    float16 rounding, hence defaults a little looser than for elementwise functions.
    """
    if case.dtype != numpy.float16:
        return
    case.check_forward_options = forward or {"atol": 5e-3, "rtol": 5e-3}
    backward = backward or {"atol": 2e-2, "rtol": 1e-1, "eps": 2.0**-6}
    case.check_backward_options = backward
    case.check_double_backward_options = backward


def normalize_reference(x, axes, eps):
    """``(x - mean) / sqrt(var + eps)`` over ``axes``, in float64."""
    x = x.astype(numpy.float64)
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    return (x - mean) / numpy.sqrt(var + eps)
