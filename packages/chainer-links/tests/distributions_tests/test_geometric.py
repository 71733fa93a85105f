"""Geometric: values against SciPy, gradients, samples, KL and errors."""

import numpy
import pytest

from chainer import testing
from chainer.distributions import Geometric
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


def _probability(dtype, shape=(2, 3)):
    return numpy.random.uniform(0.1, 0.9, shape).astype(dtype)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_matches_scipy(dtype):
    p = _probability(dtype)
    dist, reference = Geometric(p), stats().geom(p.astype(numpy.float64))
    trials = numpy.random.randint(1, 10, (3, 2, 3))
    off_support = numpy.stack([numpy.zeros((2, 3)), numpy.full((2, 3), 2.5)])
    x = numpy.concatenate([trials, off_support]).astype(dtype)
    check_functions(dist, reference, x, ["log_prob", "prob"], discrete=True)
    check_statistics(dist, reference, dtype, ["entropy", "mean", "variance", "stddev"])
    assert dist.support == "positive integer"


def test_certain_success():
    dist = Geometric(numpy.array([1.0, 1.0]))
    assert_matches(dist.log_prob(numpy.array([1.0, 2.0])), [0.0, -numpy.inf], numpy.float64)
    assert_matches(dist.entropy, [0.0, 0.0], numpy.float64)


@testing.fix_random()
def test_samples_follow_the_law_and_carry_no_gradient():
    p = _probability(numpy.float32, (3,))
    check_samples(Geometric(p), stats().geom(p), ks=False)
    assert Geometric(p).sample_n(2).creator is None


@testing.fix_random()
def test_gradients():
    p = _probability(numpy.float64)
    x = numpy.random.randint(1, 8, (2, 3)).astype(numpy.float64)
    check_gradient(lambda v: Geometric(v).log_prob(x), (p,))
    check_gradient(lambda v: Geometric(v).entropy, (p,))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_kl(dtype):
    p1, p2 = _probability(dtype, (3,)), _probability(dtype, (3,))
    geom = stats().geom
    expected = summed_kl(geom(p1.astype(numpy.float64)), geom(p2), numpy.arange(1, 600))
    assert_matches(
        kl_divergence(Geometric(p1), Geometric(p2)), expected, dtype, rtol=1e-4, atol=1e-6
    )


def test_invalid_parameters():
    with pytest.raises(ValueError, match=r"Geometric: p must be in \(0, 1\], got 0\.0"):
        Geometric(numpy.array([0.5, 0.0]))
