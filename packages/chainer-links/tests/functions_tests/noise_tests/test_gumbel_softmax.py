"""gumbel_softmax: softmax((log_pi + Gumbel noise) / tau); sampling statistics, gradients."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check, testing

from ..backend_configs import CPU_AND_CHAINERX


@testing.fix_random()  # the test reseeds NumPy's global generator; restore it afterwards
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize(("shape", "axis"), [((3, 4), 1), ((4, 2, 3), 0), ((5,), 0)])
def test_gumbel_softmax_matches_the_formula_for_the_drawn_noise(
    dtype, shape, axis, backend_config
):
    log_pi = numpy.random.uniform(-1, 1, shape).astype(dtype)
    numpy.random.seed(3)  # ChainerX inputs draw from NumPy's generator too
    y = F.gumbel_softmax(backend_config.get_array(log_pi), tau=0.5, axis=axis)
    numpy.random.seed(3)
    noise = numpy.random.gumbel(size=shape).astype(dtype).astype(numpy.float64)
    logits = (log_pi.astype(numpy.float64) + noise) / 0.5
    e = numpy.exp(logits - logits.max(axis=axis, keepdims=True))
    expected = e / e.sum(axis=axis, keepdims=True)
    assert y.shape == shape and y.dtype == dtype and y.device == backend_config.device
    tolerance = 5e-3 if dtype == numpy.float16 else 1e-5
    host = chainer.backend.CpuDevice().send(y.array)
    numpy.testing.assert_allclose(host, expected, atol=tolerance, rtol=tolerance)


@testing.fix_random()
def test_gumbel_softmax_samples_follow_the_categorical_distribution():
    pi = numpy.array([0.1, 0.3, 0.6])
    log_pi = numpy.tile(numpy.log(pi), (20000, 1)).astype(numpy.float32)
    y = F.gumbel_softmax(log_pi, tau=0.01)
    numpy.testing.assert_allclose(y.array.sum(axis=1), 1.0, rtol=1e-5)
    counts = numpy.bincount(y.array.argmax(axis=1), minlength=3) / 20000
    numpy.testing.assert_allclose(counts, pi, atol=0.015)
    assert float(y.array.max(axis=1).mean()) > 0.99  # near one-hot at a low temperature


@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
def test_gumbel_softmax_gradients_with_fixed_noise(backend_config):
    rng = numpy.random.default_rng(4)
    log_pi, gy, ggx = backend_config.get_array(tuple(rng.uniform(-1, 1, (2, 3)) for _ in range(3)))

    def f(x):
        numpy.random.seed(5)  # the same noise on every evaluation
        return F.gumbel_softmax(x, tau=2.0)

    gradient_check.check_backward(f, log_pi, gy)
    gradient_check.check_double_backward(f, log_pi, gy, ggx)


@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
def test_gumbel_softmax_of_a_scalar_is_one(backend_config):
    y = F.gumbel_softmax(backend_config.get_array(numpy.array(0.3, numpy.float32)))
    assert isinstance(y, chainer.Variable) and y.shape == () and y.dtype == numpy.float32
    assert y.device == backend_config.device and float(y.array) == 1.0


@pytest.mark.parametrize("tau", [0.0, -1.0])
def test_gumbel_softmax_rejects_non_positive_temperature(tau):
    with pytest.raises(ValueError, match=rf"tau \(the temperature\) must be positive, got {tau}"):
        F.gumbel_softmax(numpy.zeros((2, 3), numpy.float32), tau=tau)
