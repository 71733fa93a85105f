"""Array assertions that accept arrays of any backend, mixed in one call."""

from __future__ import annotations

from typing import Any

import numpy

_HOST_TYPES = (numpy.ndarray, numpy.generic, bool, int, float, complex, list, tuple)
_DEVICE_MODULES = ("cupy", "chainerx")


def _to_numpy(value: Any, name: str) -> numpy.ndarray:
    # A Variable (or anything else holding its data in ``.array``) is compared by its data.
    if not isinstance(value, numpy.ndarray) and hasattr(value, "array"):
        value = value.array
    if not isinstance(value, _HOST_TYPES):
        if type(value).__module__.partition(".")[0] not in _DEVICE_MODULES:
            raise TypeError(
                f"assert_allclose: {name} must be a NumPy, CuPy or ChainerX array, a Variable or "
                f"a number, got {type(value).__module__}.{type(value).__qualname__}"
            )
        from chainer import backend

        value = backend.CpuDevice().send(value)
    array = numpy.asarray(value)
    if array.dtype.kind not in "biufc":
        raise TypeError(
            f"assert_allclose: {name} must hold numbers, got an array of dtype {array.dtype}"
        )
    return array


def _worst_element(x: numpy.ndarray, y: numpy.ndarray, atol: float, rtol: float) -> list[str]:
    # Complex128 holds every numeric dtype exactly enough to locate the worst element.
    xs = numpy.atleast_1d(x).astype(numpy.complex128)
    ys = numpy.atleast_1d(y).astype(numpy.complex128)
    with numpy.errstate(invalid="ignore", over="ignore"):
        error = numpy.abs(xs - ys)
        same = (xs == ys) | (numpy.isnan(xs) & numpy.isnan(ys))
        # NaN against a number is a mismatch worse than any finite one.
        excess = numpy.where(numpy.isnan(error), numpy.inf, error - (atol + rtol * numpy.abs(ys)))
    excess[same] = -numpy.inf
    index = tuple(int(i) for i in numpy.unravel_index(int(numpy.argmax(excess)), excess.shape))
    allowed = atol + rtol * abs(ys[index])
    return [
        f"  worst element at index {index if x.ndim else ()}: "
        f"x={numpy.atleast_1d(x)[index]}, y={numpy.atleast_1d(y)[index]}, "
        f"|x - y|={error[index]:.6g}, allowed atol + rtol * |y|={allowed:.6g}",
        f"  max |x - y|: {numpy.max(numpy.where(same, 0.0, error)):.6g}",
    ]


def assert_allclose(
    x: Any, y: Any, atol: float = 1e-5, rtol: float = 1e-4, verbose: bool = True
) -> None:
    """Assert that ``x`` and ``y`` agree elementwise: ``|x - y| <= atol + rtol * |y|``.

    Like ``numpy.testing.assert_allclose`` with looser defaults, for arrays on any device: NumPy,
    CuPy and ChainerX arrays, ``Variable`` objects (compared by ``.array``), lists and numbers,
    in any mix.

    Args:
        x: The actual values.
        y: The expected values.
        atol: Absolute tolerance.
        rtol: Relative tolerance, relative to ``|y|``.
        verbose: Whether to include both arrays in the failure message.

    Raises:
        AssertionError: When some element differs too much (or shapes differ). The message
            gives the shapes, dtypes, the worst element with its index, and the largest error.
    """
    x_host, y_host = _to_numpy(x, "x"), _to_numpy(y, "y")
    try:
        numpy.testing.assert_allclose(
            x_host, y_host, atol=atol, rtol=rtol, verbose=False, err_msg=""
        )
    except AssertionError as error:
        report = [
            f"assert_allclose failed (atol={atol}, rtol={rtol})",
            f"  shape: x {x_host.shape}, y {y_host.shape}",
            f"  dtype: x {x_host.dtype}, y {y_host.dtype}",
        ]
        if x_host.shape == y_host.shape:
            report += _worst_element(x_host, y_host, atol, rtol)
        report.append(str(error).strip())
        if verbose:
            with numpy.printoptions(threshold=10000):
                report.append(f"x: {numpy.array2string(x_host, prefix='x: ')}")
                report.append(f"y: {numpy.array2string(y_host, prefix='y: ')}")
        raise AssertionError("\n".join(report)) from None
