"""Chisquare: values against SciPy, gradients, samples, KL and errors."""

import numpy
import pytest

from chainer import testing
from chainer.distributions import Chisquare
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


def _degrees(dtype, shape=(2, 3)):
    return numpy.random.uniform(1, 6, shape).astype(dtype)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_matches_scipy(dtype):
    k = _degrees(dtype)
    dist, reference = Chisquare(k), stats().chi2(k.astype(numpy.float64))
    x = numpy.concatenate([numpy.random.uniform(0.05, 8, (3, 2, 3)), -numpy.ones((1, 2, 3))])
    check_functions(dist, reference, x.astype(dtype), ["log_prob", "prob"])
    check_statistics(dist, reference, dtype, ["entropy", "mean", "variance", "stddev"])
    assert dist.support == "positive"


@testing.fix_random()
def test_samples_follow_the_law_and_carry_no_gradient():
    k = _degrees(numpy.float32, (3,))
    check_samples(Chisquare(k), stats().chi2(k))
    assert Chisquare(k).sample_n(2).creator is None


@testing.fix_random()
def test_gradients():
    k = _degrees(numpy.float64)
    x = numpy.random.uniform(0.1, 5, (2, 3))
    check_gradient(lambda v: Chisquare(v).log_prob(x), (k,))
    check_gradient(lambda v: Chisquare(v).entropy, (k,))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_kl(dtype):
    k1, k2 = _degrees(dtype, (3,)), _degrees(dtype, (3,))
    chi2 = stats().chi2
    expected = integrated_kl(chi2(k1.astype(numpy.float64)), chi2(k2.astype(numpy.float64)))
    assert_matches(
        kl_divergence(Chisquare(k1), Chisquare(k2)), expected, dtype, rtol=1e-4, atol=1e-6
    )


def test_invalid_parameters():
    with pytest.raises(ValueError, match=r"Chisquare: k must be positive, got -3\.0"):
        Chisquare(numpy.array([-3.0]))
