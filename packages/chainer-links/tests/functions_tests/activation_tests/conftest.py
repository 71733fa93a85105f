"""Shared settings of the activation tests: dtypes and float16 tolerances."""

import numpy

FLOAT_DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def loosen_for_float16(case, forward=None, backward=None) -> None:
    """Set a FunctionTestCase's tolerances for its ``dtype`` (float16 needs looser ones).

    Args:
        case: The test case (with a ``dtype`` attribute).
        forward: Forward tolerances for float16, default ``atol=rtol=1e-3``.
        backward: Backward and double-backward tolerances for float16, default
            ``atol=5e-3, rtol=5e-2`` with a finite-difference step of ``2 ** -6`` (the
            default step is about one float16 ulp near 1, too coarse to see a slope).
    """
    if case.dtype != numpy.float16:
        return
    case.check_forward_options = forward or {"atol": 1e-3, "rtol": 1e-3}
    backward = backward or {"atol": 5e-3, "rtol": 5e-2, "eps": 2.0**-6}
    case.check_backward_options = backward
    case.check_double_backward_options = backward


def uniform_away_from_kinks(low, high, shape, dtype, kinks=(0.0,), margin=0.05):
    """Uniform samples in ``[low, high)`` at least ``margin`` from each kink.

    Finite differences across a kink measure no slope; float16 outputs are too coarse for the
    kink detection of ``dodge_nondifferentiable``, so the inputs avoid the kinks instead.
    """
    x = numpy.random.uniform(low, high, shape)
    for _ in range(100):
        near = numpy.zeros(x.shape, bool)
        for kink in kinks:
            near |= numpy.abs(x - kink) < margin
        if not near.any():
            return numpy.asarray(x, dtype)
        x[near] = numpy.random.uniform(low, high, int(near.sum()))
    raise AssertionError(f"cannot sample {shape} in [{low}, {high}) away from {kinks}")
