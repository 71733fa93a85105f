"""Poisson: values against SciPy, gradients, samples, KL and errors."""

import numpy
import pytest

from chainer import testing
from chainer.distributions import Poisson
from chainer.distributions.distribution import kl_divergence

from .conftest import (
    FLOAT_DTYPES,
    assert_matches,
    check_functions,
    check_gradient,
    check_samples,
    check_statistics,
    stats,
    summed_kl,
)


def _rate(dtype, shape=(2, 3)):
    return numpy.random.uniform(0.5, 8, shape).astype(dtype)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_matches_scipy(dtype):
    lam = _rate(dtype)
    dist, reference = Poisson(lam), stats().poisson(lam.astype(numpy.float64))
    counts = numpy.random.randint(0, 12, (3, 2, 3))
    off_support = numpy.stack([numpy.full((2, 3), -1.0), numpy.full((2, 3), 1.5)])
    x = numpy.concatenate([counts, off_support]).astype(dtype)
    check_functions(dist, reference, x, ["log_prob", "prob"], discrete=True)
    check_statistics(dist, reference, dtype, ["mean", "variance", "stddev"])
    assert dist.support == "non negative integer"


def test_integer_points_are_accepted():
    dist = Poisson(numpy.array([2.0, 3.0], numpy.float32))
    expected = stats().poisson([2.0, 3.0]).logpmf([0, 4])
    assert_matches(dist.log_prob(numpy.array([0, 4])), expected, numpy.float32)


@testing.fix_random()
def test_samples_follow_the_law_and_carry_no_gradient():
    lam = _rate(numpy.float32, (3,))
    check_samples(Poisson(lam), stats().poisson(lam), ks=False)
    samples = Poisson(lam).sample_n(2)
    assert samples.dtype == numpy.float32
    assert samples.creator is None


@testing.fix_random()
def test_gradients():
    lam = _rate(numpy.float64)
    x = numpy.random.randint(0, 10, (2, 3)).astype(numpy.float64)
    check_gradient(lambda v: Poisson(v).log_prob(x), (lam,))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_kl(dtype):
    lam1, lam2 = _rate(dtype, (3,)), _rate(dtype, (3,))
    poisson = stats().poisson
    expected = summed_kl(poisson(lam1.astype(numpy.float64)), poisson(lam2), numpy.arange(200))
    assert_matches(
        kl_divergence(Poisson(lam1), Poisson(lam2)), expected, dtype, rtol=1e-4, atol=1e-6
    )


def test_invalid_parameters():
    with pytest.raises(ValueError, match=r"Poisson: lam must be positive, got 0\.0"):
        Poisson(numpy.zeros(2))
