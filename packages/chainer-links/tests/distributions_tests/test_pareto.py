"""Pareto: values against SciPy, infinite moments, gradients, samples, KL and errors."""

import numpy
import pytest

from chainer import testing
from chainer.distributions import Pareto
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


def _params(dtype, shape=(2, 3), alpha_range=(2.5, 6)):
    scale = numpy.random.uniform(0.5, 2, shape).astype(dtype)
    alpha = numpy.random.uniform(*alpha_range, shape).astype(dtype)
    return scale, alpha


def _reference(scale, alpha):
    return stats().pareto(alpha.astype(numpy.float64), scale=scale.astype(numpy.float64))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_matches_scipy(dtype):
    scale, alpha = _params(dtype)
    dist, reference = Pareto(scale, alpha), _reference(scale, alpha)
    x = numpy.random.uniform(0, 5, (4, 2, 3)).astype(dtype)
    check_functions(dist, reference, x, ["log_prob", "prob", "cdf", "survival_function"])
    check_functions(dist, reference, numpy.random.uniform(0, 0.99, (2, 3)).astype(dtype), ["icdf"])
    check_statistics(dist, reference, dtype, ["entropy", "mean", "variance", "stddev"])
    assert dist.support == "[scale, inf]"


def test_moments_are_infinite_for_small_alpha():
    dist = Pareto(numpy.ones(3), numpy.array([0.5, 1.5, 3.0]))
    assert_matches(dist.mean, [numpy.inf, 3.0, 1.5], numpy.float64)
    assert_matches(dist.variance, [numpy.inf, numpy.inf, 0.75], numpy.float64)


@testing.fix_random()
def test_samples_follow_the_law():
    scale, alpha = _params(numpy.float32, (3,), (4.5, 6))
    check_samples(Pareto(scale, alpha), _reference(scale, alpha))


@testing.fix_random()
def test_gradients():
    scale, alpha = _params(numpy.float64)
    x = scale + numpy.random.uniform(0.1, 3, (2, 3))
    check_gradient(lambda s, a: Pareto(s, a).log_prob(x), (scale, alpha))
    check_gradient(lambda s, a: Pareto(s, a).cdf(x), (scale, alpha))
    check_gradient(lambda s, a: Pareto(s, a).icdf(numpy.full((2, 3), 0.4)), (scale, alpha))
    check_gradient(lambda s, a: Pareto(s, a).mean + Pareto(s, a).variance, (scale, alpha))
    check_gradient(seeded(lambda s, a: Pareto(s, a).sample_n(3)), (scale, alpha))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_kl(dtype):
    scale2, alpha2 = _params(dtype, (3,))
    scale1, alpha1 = scale2 + numpy.array([0, 0.5, 1], dtype), _params(dtype, (3,))[1]
    expected = integrated_kl(_reference(scale1, alpha1), _reference(scale2, alpha2))
    kl = kl_divergence(Pareto(scale1, alpha1), Pareto(scale2, alpha2))
    assert_matches(kl, expected, dtype, rtol=1e-4, atol=1e-6)
    # A support that starts below the other's gives an infinite divergence.
    assert_matches(
        kl_divergence(Pareto(scale2, alpha2), Pareto(scale1, alpha1))[1:], [numpy.inf] * 2, dtype
    )


def test_invalid_parameters():
    with pytest.raises(ValueError, match=r"Pareto: scale must be positive, got 0\.0"):
        Pareto(numpy.zeros(1), numpy.ones(1))
    with pytest.raises(ValueError, match=r"Pareto: alpha must be positive, got -1\.0"):
        Pareto(numpy.ones(1), -numpy.ones(1))
