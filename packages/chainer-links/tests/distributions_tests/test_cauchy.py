"""Cauchy: values against SciPy, undefined moments, gradients, samples, KL and errors."""

import numpy
import pytest

from chainer import testing
from chainer.distributions import Cauchy
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
    dist = Cauchy(loc, scale)
    reference = stats().cauchy(loc.astype(numpy.float64), scale.astype(numpy.float64))
    x = numpy.random.uniform(-5, 5, (4, 2, 3)).astype(dtype)
    check_functions(dist, reference, x, ["log_prob", "prob", "cdf", "survival_function"])
    check_functions(
        dist, reference, numpy.random.uniform(0.05, 0.95, (2, 3)).astype(dtype), ["icdf"]
    )
    check_statistics(dist, reference, dtype, ["entropy"])
    assert_matches(dist.mode, loc, dtype)
    assert dist.support == "real"


@pytest.mark.parametrize("name", ["mean", "variance"])
def test_moments_are_undefined(name):
    dist = Cauchy(numpy.zeros(2, numpy.float32), numpy.ones(2, numpy.float32))
    with pytest.warns(RuntimeWarning, match=f"{name} of the Cauchy distribution is undefined"):
        value = getattr(dist, name)
    assert value.shape == (2,)
    assert value.dtype == numpy.float32
    assert numpy.isnan(value.array).all()


@testing.fix_random()
def test_samples_follow_the_law():
    loc, scale = _params(numpy.float32, (3,))
    check_samples(Cauchy(loc, scale), stats().cauchy(loc, scale), moments=False)


@testing.fix_random()
def test_gradients():
    loc, scale = _params(numpy.float64)
    x = numpy.random.uniform(-3, 3, (2, 3))
    p = numpy.random.uniform(0.1, 0.9, (2, 3))
    check_gradient(lambda m, s: Cauchy(m, s).log_prob(x), (loc, scale))
    check_gradient(lambda m, s: Cauchy(m, s).cdf(x), (loc, scale))
    check_gradient(lambda m, s: Cauchy(m, s).icdf(p), (loc, scale))
    check_gradient(seeded(lambda m, s: Cauchy(m, s).sample_n(3)), (loc, scale))


@testing.fix_random()
def test_kl():
    (loc1, scale1), (loc2, scale2) = _params(numpy.float64, (3,)), _params(numpy.float64, (3,))
    cauchy = stats().cauchy
    expected = integrated_kl(cauchy(loc1, scale1), cauchy(loc2, scale2), (-numpy.inf, numpy.inf))
    kl = kl_divergence(Cauchy(loc1, scale1), Cauchy(loc2, scale2))
    assert_matches(kl, expected, numpy.float64, rtol=1e-5, atol=1e-7)


def test_invalid_parameters():
    with pytest.raises(ValueError, match=r"Cauchy: scale must be positive, got 0\.0"):
        Cauchy(numpy.zeros(1), numpy.zeros(1))
