"""A class decorator that generates the standard tests of an elementwise unary function."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy

from chainer.testing import array, backend, parameterized

_SHAPES = [(3, 2), ()]
_DTYPES = [numpy.float16, numpy.float32, numpy.float64]
_BACKENDS: list[dict[str, Any]] = [
    {},
    {"use_cuda": True},
    {"use_chainerx": True, "chainerx_device": "native:0"},
    {"use_chainerx": True, "chainerx_device": "cuda:0"},
]

# Preset tolerances per dtype. Gradients are checked numerically in float64, so the float16
# and float32 presets only absorb the rounding of the function under test.
_FORWARD_OPTIONS = {numpy.float16: {"atol": 1e-3, "rtol": 1e-3}}
_GRADIENT_OPTIONS = {
    numpy.float16: {"dtype": numpy.float64, "atol": 1e-2, "rtol": 1e-2},
    numpy.float32: {"dtype": numpy.float64, "atol": 1e-4, "rtol": 1e-3},
    numpy.float64: {"atol": 1e-5, "rtol": 1e-4},
}


def _uniform_data(shape: tuple[int, ...], dtype: Any) -> tuple[numpy.ndarray, ...]:
    return tuple(numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype) for _ in range(3))


def _options(given: dict | None, presets: dict, dtype: Any) -> dict:
    # Given options update the dtype's presets (v7): ``{'eps': 1e-6}`` keeps the float64
    # numerical derivative that a float16 input needs.
    return {**presets.get(dtype, {}), **(given or {})}


def unary_math_function_unittest(
    func: Callable,
    func_expected: Callable | None = None,
    label_expected: str | None = None,
    make_data: Callable | None = None,
    is_linear: bool | None = None,
    forward_options: dict | None = None,
    backward_options: dict | None = None,
    double_backward_options: dict | None = None,
) -> Callable[[type], Any]:
    """Decorate a test class so it tests an elementwise unary function.

    The class gets ``test_forward``, ``test_backward`` and ``test_double_backward``, run for
    shapes ``(3, 2)`` and ``()``, dtypes float16/32/64 and the NumPy, CuPy and ChainerX backends
    (those without hardware are skipped), plus ``test_label`` when ``func`` has a ``label``.
    ``func`` must take one input and return one output of the same dtype.

    Args:
        func: The function under test, called with a ``chainer.Variable``.
        func_expected: The reference, called as ``func_expected(x, dtype=dtype)`` on a NumPy
            array; by default the NumPy function of the same name as ``func``.
        label_expected: The expected ``func.label``; by default ``func.__name__``.
        make_data: ``make_data(shape, dtype) -> (x, gy, ggx)`` input, output gradient and
            input gradient-of-gradient arrays; by default uniform in ``[-1, 1]``.
        is_linear: Deprecated and ignored: linear functions need nothing special.
        forward_options: Keyword arguments for :func:`chainer.testing.assert_allclose`;
            they update tolerances chosen per dtype.
        backward_options: Keyword arguments for ``chainer.gradient_check.check_backward``;
            they update tolerances chosen per dtype (float16 and float32 inputs get their
            numerical derivative in float64).
        double_backward_options: Keyword arguments for
            ``chainer.gradient_check.check_double_backward``; by default as for backward.

    Example:
        >>> import unittest
        >>> from chainer import testing
        >>> @testing.unary_math_function_unittest(F.sin)
        ... class TestSin(unittest.TestCase):
        ...     pass
    """
    if not callable(func):
        raise TypeError(f"unary_math_function_unittest expects a function, got {func!r}")
    name = getattr(func, "__name__", None)
    if func_expected is None:
        func_expected = getattr(numpy, name or "", None)
        if func_expected is None:
            raise ValueError(
                f"unary_math_function_unittest: numpy has no function named {name!r}; "
                "pass func_expected"
            )
    if label_expected is None:
        label_expected = name
    if make_data is None:
        make_data = _uniform_data
    if is_linear is not None:
        warnings.warn(
            "is_linear of unary_math_function_unittest is deprecated and has no effect",
            DeprecationWarning,
            stacklevel=2,
        )

    def test_forward(self, backend_config):
        import chainer

        x, _, _ = make_data(self.shape, self.dtype)
        with backend_config:
            y = func(chainer.Variable(backend_config.get_array(x)))
        assert y.array.dtype == self.dtype, f"output dtype {y.array.dtype}, input {self.dtype}"
        expected = func_expected(x, dtype=self.dtype)
        options = _options(forward_options, _FORWARD_OPTIONS, self.dtype)
        array.assert_allclose(y.array, expected, **options)

    def test_backward(self, backend_config):
        from chainer import gradient_check

        x, gy, _ = (backend_config.get_array(a) for a in make_data(self.shape, self.dtype))
        options = _options(backward_options, _GRADIENT_OPTIONS, self.dtype)
        with backend_config:
            gradient_check.check_backward(func, x, gy, **options)

    def test_double_backward(self, backend_config):
        from chainer import gradient_check

        x, gy, ggx = (backend_config.get_array(a) for a in make_data(self.shape, self.dtype))
        options = _options(double_backward_options, _GRADIENT_OPTIONS, self.dtype)
        with backend_config:
            gradient_check.check_double_backward(func, x, gy, ggx, **options)

    def test_label(self):
        assert func.label == label_expected

    def decorator(cls: Any) -> Any:
        if not isinstance(cls, type):
            raise TypeError(
                f"unary_math_function_unittest decorates a test class, got {type(cls).__name__}"
            )
        tests: Any = cls  # a class of the caller's, given test methods here
        tests.test_forward = test_forward
        tests.test_backward = test_backward
        tests.test_double_backward = test_double_backward
        injected = ["test_forward", "test_backward", "test_double_backward"]
        if hasattr(func, "label"):
            tests.test_label = test_label
        cases = backend.inject_backend_tests(injected, _BACKENDS)(cls)
        params = parameterized.product({"shape": _SHAPES, "dtype": _DTYPES})
        return parameterized.parameterize(*params)(cases)

    return decorator
