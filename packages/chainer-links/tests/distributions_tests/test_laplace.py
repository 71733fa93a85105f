"""Laplace: values against SciPy, gradients, reparameterized samples, KL and errors."""

import numpy
import pytest

from chainer import gradient_check, testing
from chainer.distributions import Laplace
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
    dist = Laplace(loc, scale)
    reference = stats().laplace(loc.astype(numpy.float64), scale.astype(numpy.float64))
    x = numpy.random.uniform(-4, 4, (4, 2, 3)).astype(dtype)
    check_functions(dist, reference, x, ["log_prob", "prob", "cdf", "survival_function"])
    check_functions(
        dist, reference, numpy.random.uniform(0.02, 0.98, (2, 3)).astype(dtype), ["icdf"]
    )
    check_statistics(dist, reference, dtype, ["entropy", "mean", "variance", "stddev"])
    assert_matches(dist.mode, loc, dtype)
    assert dist.support == "real"


@testing.fix_random()
def test_samples_follow_the_law():
    loc, scale = _params(numpy.float32, (3,))
    check_samples(Laplace(loc, scale), stats().laplace(loc, scale))


@testing.fix_random()
def test_gradients():
    loc, scale = _params(numpy.float64)
    # Points and probabilities away from the kink at the location.
    x = loc + numpy.random.choice([-1, 1], (2, 3)) * numpy.random.uniform(0.2, 2, (2, 3))
    p = numpy.random.choice([0.2, 0.7], (2, 3))
    check_gradient(lambda m, s: Laplace(m, s).log_prob(x), (loc, scale))
    check_gradient(lambda m, s: Laplace(m, s).cdf(x), (loc, scale))
    check_gradient(lambda m, s: Laplace(m, s).icdf(p), (loc, scale))
    check_gradient(seeded(lambda m, s: Laplace(m, s).sample_n(3)), (loc, scale))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_kl(dtype):
    (loc1, scale1), (loc2, scale2) = _params(dtype, (3,)), _params(dtype, (3,))
    laplace = stats().laplace
    expected = integrated_kl(
        laplace(loc1.astype(float), scale1.astype(float)), laplace(loc2, scale2)
    )
    kl = kl_divergence(Laplace(loc1, scale1), Laplace(loc2, scale2))
    assert_matches(kl, expected, dtype, rtol=1e-4, atol=1e-6)


def test_invalid_parameters():
    with pytest.raises(ValueError, match=r"Laplace: scale must be positive, got -1\.0"):
        Laplace(numpy.zeros(1), -numpy.ones(1))


def test_private_standard_cdf_and_its_inverse():
    # v7's private names of the standard Laplace CDF and inverse CDF (ours back Laplace).
    from chainer.distributions.laplace import _laplace_cdf, _laplace_icdf

    z = numpy.array([-2.0, -0.5, 0.0, 0.7, 3.0])
    expected = numpy.where(z < 0, 0.5 * numpy.exp(z), 1 - 0.5 * numpy.exp(-z))
    numpy.testing.assert_allclose(_laplace_cdf(z).array, expected, rtol=1e-12)
    numpy.testing.assert_allclose(_laplace_icdf(expected).array, z, rtol=1e-12, atol=1e-15)
    p = numpy.array([0.1, 0.4, 0.8])
    gradient_check.check_backward(_laplace_icdf, p, numpy.ones(3), rtol=1e-5)
    gradient_check.check_backward(_laplace_cdf, z[z != 0], numpy.ones(4), rtol=1e-5)
