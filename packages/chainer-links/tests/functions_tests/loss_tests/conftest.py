"""Shared settings of the loss tests: dtypes and float16 tolerances."""

import numpy

FLOAT_DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def loosen_for_float16(case, forward=None, backward=None) -> None:
    """Give a FunctionTestCase looser tolerances when its ``dtype`` is float16.

    Losses sum many float16 terms, so forward values get ``atol=rtol=5e-3`` by default; the
    gradient checks use a finite-difference step of ``2 ** -6`` (the default step is about one
    float16 ulp near 1, too coarse to measure a slope).
    """
    if case.dtype != numpy.float16:
        return
    case.check_forward_options = forward or {"atol": 5e-3, "rtol": 5e-3}
    backward = backward or {"atol": 1e-2, "rtol": 5e-2, "eps": 2.0**-6}
    case.check_backward_options = backward
    case.check_double_backward_options = backward


def log_softmax(x, axis=1):
    """Reference log-softmax in float64."""
    x = x.astype(numpy.float64)
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - numpy.log(numpy.exp(shifted).sum(axis=axis, keepdims=True))
