"""LogNormal: values against SciPy, gradients, reparameterized samples, KL and errors."""

import numpy
import pytest

from chainer import testing
from chainer.distributions import LogNormal
from chainer.distributions.distribution import kl_divergence

from .conftest import (
    FLOAT_DTYPES,
    assert_matches,
    check_functions,
    check_gradient,
    check_samples,
    check_statistics,
    integrated_kl,
    seeded,
    stats,
)


def _params(dtype, shape=(2, 3)):
    mu = numpy.random.uniform(-0.5, 0.5, shape).astype(dtype)
    sigma = numpy.random.uniform(0.3, 1, shape).astype(dtype)
    return mu, sigma


def _reference(mu, sigma):
    return stats().lognorm(sigma.astype(numpy.float64), scale=numpy.exp(mu.astype(numpy.float64)))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_matches_scipy(dtype):
    mu, sigma = _params(dtype)
    dist, reference = LogNormal(mu, sigma), _reference(mu, sigma)
    x = numpy.random.uniform(0.1, 4, (4, 2, 3)).astype(dtype)
    check_functions(dist, reference, x, ["log_prob", "prob", "cdf", "survival_function"])
    check_functions(
        dist, reference, numpy.random.uniform(0.05, 0.95, (2, 3)).astype(dtype), ["icdf"]
    )
    check_statistics(dist, reference, dtype, ["entropy", "mean", "variance", "stddev"])
    assert dist.support == "positive"
    assert dist.batch_shape == (2, 3)


def test_mode_maximizes_the_density():
    dist = LogNormal(numpy.array([0.0, 1.0]), numpy.array([0.5, 0.8]))
    mode = dist.mode.array
    for step in (1e-3, -1e-3):
        assert (dist.log_prob(mode).array > dist.log_prob(mode + step).array).all()


def test_points_off_the_support():
    dist = LogNormal(numpy.zeros(3), numpy.ones(3))
    x = numpy.array([-1.0, 0.0, 1.0])
    assert_matches(
        dist.log_prob(x), [-numpy.inf, -numpy.inf, -0.5 * numpy.log(2 * numpy.pi)], x.dtype
    )
    assert_matches(dist.cdf(x), [0.0, 0.0, 0.5], x.dtype)


@testing.fix_random()
def test_samples_follow_the_law():
    mu, sigma = _params(numpy.float32, (3,))
    check_samples(LogNormal(mu, sigma), _reference(mu, sigma))


@testing.fix_random()
def test_gradients():
    mu, sigma = _params(numpy.float64)
    x = numpy.random.uniform(0.2, 3, (2, 3))
    check_gradient(lambda m, s: LogNormal(m, s).log_prob(x), (mu, sigma))
    check_gradient(lambda m, s: LogNormal(m, s).cdf(x), (mu, sigma))
    check_gradient(lambda m, s: LogNormal(m, s).mean + LogNormal(m, s).variance, (mu, sigma))
    check_gradient(seeded(lambda m, s: LogNormal(m, s).sample_n(3)), (mu, sigma))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_kl(dtype):
    (mu1, sigma1), (mu2, sigma2) = _params(dtype, (3,)), _params(dtype, (3,))
    expected = integrated_kl(_reference(mu1, sigma1), _reference(mu2, sigma2))
    kl = kl_divergence(LogNormal(mu1, sigma1), LogNormal(mu2, sigma2))
    assert_matches(kl, expected, dtype, rtol=1e-4, atol=1e-6)


def test_invalid_parameters():
    with pytest.raises(ValueError, match=r"LogNormal: sigma must be positive, got 0\.0"):
        LogNormal(numpy.zeros(2), numpy.zeros(2))
