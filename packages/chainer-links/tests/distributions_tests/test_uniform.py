"""Uniform: both parameterizations against SciPy, gradients, samples, KL and errors."""

import numpy
import pytest

from chainer import testing
from chainer.distributions import Uniform
from chainer.distributions.distribution import kl_divergence

from .conftest import (
    FLOAT_DTYPES,
    assert_matches,
    check_functions,
    check_gradient,
    check_samples,
    check_statistics,
    seeded,
    stats,
)


def _bounds(dtype, shape=(2, 3)):
    low = numpy.random.uniform(-2, 0, shape).astype(dtype)
    high = low + numpy.random.uniform(0.5, 2, shape).astype(dtype)
    return low, high


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("by_bounds", [True, False])
@testing.fix_random()
def test_matches_scipy(dtype, by_bounds):
    low, high = _bounds(dtype)
    scale = high - low
    dist = Uniform(low=low, high=high) if by_bounds else Uniform(loc=low, scale=scale)
    reference = stats().uniform(low.astype(numpy.float64), scale.astype(numpy.float64))
    inside = low + numpy.random.uniform(0.01, 0.99, (4, 2, 3)).astype(dtype) * scale
    check_functions(dist, reference, inside, ["log_prob", "prob", "cdf", "survival_function"])
    outside = numpy.stack([low - 1, high + 1]).astype(dtype)
    check_functions(dist, reference, outside, ["log_prob", "cdf"])
    check_functions(dist, reference, numpy.random.uniform(0, 1, (2, 3)).astype(dtype), ["icdf"])
    check_statistics(dist, reference, dtype, ["entropy", "mean", "variance", "stddev"])
    for name, expected in [("low", low), ("high", high), ("loc", low), ("scale", scale)]:
        assert_matches(getattr(dist, name), expected, dtype)
    assert set(dist.params) == ({"low", "high"} if by_bounds else {"loc", "scale"})
    assert dist.support == "[low, high]"


@testing.fix_random()
def test_samples_follow_the_law():
    low, high = _bounds(numpy.float32, (3,))
    check_samples(Uniform(low=low, high=high), stats().uniform(low, high - low))


@testing.fix_random()
def test_gradients():
    low, high = _bounds(numpy.float64)
    x = low + 0.3 * (high - low)
    p = numpy.random.uniform(0, 1, (2, 3))
    check_gradient(lambda lo, hi: Uniform(low=lo, high=hi).log_prob(x), (low, high))
    check_gradient(lambda lo, hi: Uniform(low=lo, high=hi).cdf(x), (low, high))
    check_gradient(lambda lo, s: Uniform(loc=lo, scale=s).icdf(p), (low, high - low))
    check_gradient(lambda lo, hi: Uniform(low=lo, high=hi).variance, (low, high))
    check_gradient(seeded(lambda lo, hi: Uniform(low=lo, high=hi).sample_n(3)), (low, high))


def test_kl_is_finite_only_for_nested_intervals():
    p = Uniform(low=numpy.array([0.0, 0.0]), high=numpy.array([1.0, 1.0]))
    q = Uniform(low=numpy.array([-1.0, 0.5]), high=numpy.array([3.0, 2.0]))
    assert_matches(kl_divergence(p, q), [numpy.log(4.0), numpy.inf], numpy.float64)


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"low": 0.0}, {"low": 0.0, "high": 1.0, "loc": 0.0}, {"loc": 0.0, "high": 1.0}],
)
def test_requires_exactly_one_pair(kwargs):
    with pytest.raises(ValueError, match="Uniform: give either low and high, or loc and scale"):
        Uniform(**kwargs)


def test_invalid_parameters():
    with pytest.raises(ValueError, match=r"Uniform: high - low must be positive, got -1\.0"):
        Uniform(low=numpy.ones(2), high=numpy.array([2.0, 0.0]))
    with pytest.raises(ValueError, match=r"Uniform: scale must be positive, got 0\.0"):
        Uniform(loc=numpy.ones(2), scale=numpy.zeros(2))
