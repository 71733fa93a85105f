"""Shared fixtures of the core-op tests: dtypes with matching gradient-check tolerances."""

import numpy
import pytest

from chainer import testing

TOLERANCES = {
    numpy.float16: {"atol": 5e-3, "rtol": 5e-2, "dtype": numpy.float64},
    numpy.float32: {"atol": 1e-4, "rtol": 1e-3, "dtype": numpy.float64},
    numpy.float64: {"atol": 1e-5, "rtol": 1e-4},
}
FORWARD_TOLERANCES = {
    numpy.float16: {"atol": 1e-3, "rtol": 1e-2},
    numpy.float32: {"atol": 1e-6, "rtol": 1e-5},
    numpy.float64: {"atol": 1e-12, "rtol": 1e-10},
}


@pytest.fixture(params=[numpy.float16, numpy.float32, numpy.float64], ids=lambda t: t.__name__)
def dtype(request):
    return request.param


@pytest.fixture
def rng():
    return numpy.random.default_rng(0)


_BACKENDS = {"numpy": {}, "chainerx": {"use_chainerx": True, "chainerx_device": "native:0"}}


@pytest.fixture(
    params=[
        pytest.param(config, marks=config.get_pytest_marks(), id=name)
        for name, config in ((n, testing.BackendConfig(p)) for n, p in _BACKENDS.items())
    ]
)
def backend_config(request):
    """NumPy, and ChainerX on its native device (skipped where chainerx is not installed)."""
    return request.param
