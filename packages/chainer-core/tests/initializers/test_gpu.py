"""CuPy paths of the initializers; skipped where no CUDA device is available."""

import importlib.util

import numpy
import pytest

from chainer import initializers

pytestmark = pytest.mark.gpu


@pytest.fixture
def cupy():
    if importlib.util.find_spec("chainer.backend") is None:
        pytest.skip("chainer.backend not available yet")
    cupy = pytest.importorskip("cupy")
    if not cupy.is_available():
        pytest.skip("no CUDA device")
    return cupy


def test_normal_draws_on_device(cupy):
    array = cupy.empty((400, 300), numpy.float32)
    initializers.HeNormal()(array)
    assert isinstance(array, cupy.ndarray)
    assert float(array.std()) == pytest.approx((2.0 / 300) ** 0.5, rel=0.02)


def test_rng_draws_are_sent_to_device(cupy):
    array = cupy.empty((5, 4), numpy.float64)
    initializers.Uniform(0.3, rng=numpy.random.RandomState(1))(array)
    expected = numpy.random.RandomState(1).uniform(-0.3, 0.3, (5, 4))
    numpy.testing.assert_array_equal(cupy.asnumpy(array), expected)


def test_orthogonal_on_device(cupy):
    array = cupy.empty((3, 6), numpy.float32)
    initializers.Orthogonal(1.0)(array)
    w = cupy.asnumpy(array).astype(numpy.float64)
    numpy.testing.assert_allclose(w @ w.T, numpy.eye(3), atol=1e-5)


def test_constant_fills_across_backends(cupy):
    on_device = cupy.empty((2, 3), numpy.float32)
    initializers.Constant(numpy.arange(3.0))(on_device)
    numpy.testing.assert_array_equal(cupy.asnumpy(on_device), [[0, 1, 2]] * 2)
    on_host = numpy.empty((2, 3), numpy.float32)
    initializers.Constant(cupy.arange(3.0))(on_host)
    numpy.testing.assert_array_equal(on_host, [[0, 1, 2]] * 2)


def test_generate_array_with_cupy(cupy):
    array = initializers.generate_array(initializers.Identity(2.0), (3, 3), cupy, device="@cupy:0")
    assert isinstance(array, cupy.ndarray)
    numpy.testing.assert_array_equal(cupy.asnumpy(array), 2.0 * numpy.eye(3))
