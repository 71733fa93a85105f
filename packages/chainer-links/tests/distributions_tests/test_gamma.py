"""Gamma: values against SciPy, gradients, samples, KL and errors."""

import numpy
import pytest

from chainer import testing
from chainer.distributions import Gamma
from chainer.distributions.distribution import kl_divergence

from .conftest import (
    FLOAT_DTYPES,
    assert_matches,
    check_functions,
    check_gradient,
    check_samples,
    check_statistics,
    integrated_kl,
    stats,
)


def _params(dtype, shape=(2, 3)):
    k = numpy.random.uniform(0.5, 4, shape).astype(dtype)
    theta = numpy.random.uniform(0.5, 2, shape).astype(dtype)
    return k, theta


def _reference(k, theta):
    return stats().gamma(k.astype(numpy.float64), scale=theta.astype(numpy.float64))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_matches_scipy(dtype):
    k, theta = _params(dtype)
    dist, reference = Gamma(k, theta), _reference(k, theta)
    x = numpy.concatenate([numpy.random.uniform(0.05, 6, (3, 2, 3)), -numpy.ones((1, 2, 3))])
    check_functions(dist, reference, x.astype(dtype), ["log_prob", "prob"])
    check_statistics(dist, reference, dtype, ["entropy", "mean", "variance", "stddev"])
    assert dist.support == "positive"
    assert dist.batch_shape == (2, 3)


@testing.fix_random()
def test_samples_follow_the_law_and_carry_no_gradient():
    k, theta = _params(numpy.float32, (3,))
    check_samples(Gamma(k, theta), _reference(k, theta))
    samples = Gamma(k, theta).sample_n(2)
    assert samples.dtype == numpy.float32
    assert samples.creator is None


@testing.fix_random()
def test_gradients():
    k, theta = _params(numpy.float64)
    x = numpy.random.uniform(0.1, 4, (2, 3))
    check_gradient(lambda a, t: Gamma(a, t).log_prob(x), (k, theta))
    check_gradient(lambda a, t: Gamma(a, t).entropy, (k, theta))
    check_gradient(lambda a, t: Gamma(a, t).variance, (k, theta))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_kl(dtype):
    (k1, theta1), (k2, theta2) = _params(dtype, (3,)), _params(dtype, (3,))
    expected = integrated_kl(_reference(k1, theta1), _reference(k2, theta2))
    kl = kl_divergence(Gamma(k1, theta1), Gamma(k2, theta2))
    assert_matches(kl, expected, dtype, rtol=1e-4, atol=1e-6)


def test_invalid_parameters():
    with pytest.raises(ValueError, match=r"Gamma: k must be positive, got 0\.0"):
        Gamma(numpy.zeros(1), numpy.ones(1))
    with pytest.raises(ValueError, match=r"Gamma: theta must be positive, got -1\.0"):
        Gamma(numpy.ones(1), -numpy.ones(1))
