"""Gumbel: values against SciPy, gradients, reparameterized samples, KL and errors."""

import numpy
import pytest

from chainer import testing
from chainer.distributions import Gumbel
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
    loc = numpy.random.uniform(-1, 1, shape).astype(dtype)
    scale = numpy.random.uniform(0.5, 2, shape).astype(dtype)
    return loc, scale


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_matches_scipy(dtype):
    loc, scale = _params(dtype)
    dist = Gumbel(loc, scale)
    reference = stats().gumbel_r(loc.astype(numpy.float64), scale.astype(numpy.float64))
    x = numpy.random.uniform(-2, 5, (4, 2, 3)).astype(dtype)
    check_functions(
        dist, reference, x, ["log_prob", "prob", "cdf", "log_cdf", "survival_function"]
    )
    check_functions(
        dist, reference, numpy.random.uniform(0.05, 0.95, (2, 3)).astype(dtype), ["icdf"]
    )
    check_statistics(dist, reference, dtype, ["entropy", "mean", "variance", "stddev"])
    assert_matches(dist.mode, loc, dtype)
    assert dist.support == "real"


@testing.fix_random()
def test_samples_follow_the_law():
    loc, scale = _params(numpy.float32, (3,))
    check_samples(Gumbel(loc, scale), stats().gumbel_r(loc, scale))


@testing.fix_random()
def test_gradients():
    loc, scale = _params(numpy.float64)
    x = numpy.random.uniform(-2, 4, (2, 3))
    p = numpy.random.uniform(0.1, 0.9, (2, 3))
    check_gradient(lambda m, s: Gumbel(m, s).log_prob(x), (loc, scale))
    check_gradient(lambda m, s: Gumbel(m, s).cdf(x), (loc, scale))
    check_gradient(lambda m, s: Gumbel(m, s).icdf(p), (loc, scale))
    check_gradient(seeded(lambda m, s: Gumbel(m, s).sample_n(3)), (loc, scale))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_kl(dtype):
    pytest.importorskip("scipy.special")
    (loc1, scale1), (loc2, scale2) = _params(dtype, (3,)), _params(dtype, (3,))
    gumbel = stats().gumbel_r
    expected = integrated_kl(
        gumbel(loc1.astype(float), scale1.astype(float)), gumbel(loc2, scale2)
    )
    kl = kl_divergence(Gumbel(loc1, scale1), Gumbel(loc2, scale2))
    assert_matches(kl, expected, dtype, rtol=1e-4, atol=1e-6)
    check_gradient(
        lambda m, s: kl_divergence(Gumbel(m, s), Gumbel(loc2.astype(float), 1.3)),
        (loc1.astype(float), scale1.astype(float)),
    )


def test_invalid_parameters():
    with pytest.raises(ValueError, match=r"Gumbel: scale must be positive, got -1\.0"):
        Gumbel(numpy.zeros(1), -numpy.ones(1))
