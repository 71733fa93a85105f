"""Beta: values against SciPy, gradients, samples, KL and errors."""

import numpy
import pytest

from chainer import testing
from chainer.distributions import Beta
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
    a = numpy.random.uniform(0.5, 4, shape).astype(dtype)
    b = numpy.random.uniform(0.5, 4, shape).astype(dtype)
    return a, b


def _reference(a, b):
    return stats().beta(a.astype(numpy.float64), b.astype(numpy.float64))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_matches_scipy(dtype):
    a, b = _params(dtype)
    dist, reference = Beta(a, b), _reference(a, b)
    x = numpy.concatenate(
        [numpy.random.uniform(0.02, 0.98, (3, 2, 3)), numpy.full((1, 2, 3), 1.5)]
    ).astype(dtype)
    check_functions(dist, reference, x, ["log_prob", "prob"])
    check_statistics(dist, reference, dtype, ["entropy", "mean", "variance", "stddev"])
    assert dist.support == "[0, 1]"


@testing.fix_random()
def test_samples_follow_the_law_and_carry_no_gradient():
    a, b = _params(numpy.float32, (3,))
    check_samples(Beta(a, b), _reference(a, b))
    assert Beta(a, b).sample_n(2).creator is None


@testing.fix_random()
def test_gradients():
    a, b = _params(numpy.float64)
    x = numpy.random.uniform(0.1, 0.9, (2, 3))
    check_gradient(lambda u, v: Beta(u, v).log_prob(x), (a, b))
    check_gradient(lambda u, v: Beta(u, v).entropy, (a, b))
    check_gradient(lambda u, v: Beta(u, v).variance, (a, b))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_kl(dtype):
    (a1, b1), (a2, b2) = _params(dtype, (3,)), _params(dtype, (3,))
    expected = integrated_kl(_reference(a1, b1), _reference(a2, b2))
    assert_matches(
        kl_divergence(Beta(a1, b1), Beta(a2, b2)), expected, dtype, rtol=1e-4, atol=1e-6
    )


def test_invalid_parameters():
    with pytest.raises(ValueError, match=r"Beta: a must be positive, got 0\.0"):
        Beta(numpy.zeros(1), numpy.ones(1))
    with pytest.raises(ValueError, match=r"Beta: b must be positive, got -1\.0"):
        Beta(numpy.ones(1), -numpy.ones(1))
