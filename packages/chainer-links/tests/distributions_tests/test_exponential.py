"""Exponential: values against SciPy, gradients, reparameterized samples, KL and errors."""

import numpy
import pytest

import chainer
from chainer import testing
from chainer.distributions import Exponential
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


def _rate(dtype, shape=(2, 3)):
    return numpy.random.uniform(0.5, 2, shape).astype(dtype)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_matches_scipy(dtype):
    lam = _rate(dtype)
    dist, reference = Exponential(lam), stats().expon(scale=1 / lam.astype(numpy.float64))
    x = numpy.random.uniform(-1, 4, (4, 2, 3)).astype(dtype)
    check_functions(dist, reference, x, ["log_prob", "prob", "cdf", "survival_function"])
    check_functions(dist, reference, numpy.random.uniform(0, 0.99, (2, 3)).astype(dtype), ["icdf"])
    check_statistics(dist, reference, dtype, ["entropy", "mean", "variance", "stddev"])
    assert_matches(dist.mode, numpy.zeros((2, 3)), dtype)
    assert dist.support == "positive"


@testing.fix_random()
def test_samples_follow_the_law():
    lam = _rate(numpy.float32, (3,))
    check_samples(Exponential(lam), stats().expon(scale=1 / lam))


@testing.fix_random()
def test_gradients():
    lam = _rate(numpy.float64)
    x = numpy.random.uniform(0.1, 3, (2, 3))
    check_gradient(lambda v: Exponential(v).log_prob(x), (lam,))
    check_gradient(lambda v: Exponential(v).cdf(x), (lam,))
    check_gradient(lambda v: Exponential(v).icdf(numpy.full((2, 3), 0.3)), (lam,))
    check_gradient(lambda v: Exponential(v).entropy, (lam,))
    check_gradient(seeded(lambda v: Exponential(v).sample_n(3)), (lam,))
    check_gradient(lambda t: Exponential(lam).log_prob(t), (x,))


def test_no_gradient_flows_from_points_off_the_support():
    x = chainer.Variable(numpy.array([-1.0, 2.0]))
    log_prob = Exponential(numpy.array([0.5, 0.5])).log_prob(x)
    assert_matches(log_prob, [-numpy.inf, numpy.log(0.5) - 1], numpy.float64)
    log_prob.grad = numpy.ones(2)
    log_prob.backward()
    assert_matches(x.grad_var, [0.0, -0.5], numpy.float64)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_kl(dtype):
    lam1, lam2 = _rate(dtype, (3,)), _rate(dtype, (3,))
    expon = stats().expon
    expected = integrated_kl(expon(scale=1 / lam1.astype(float)), expon(scale=1 / lam2))
    assert_matches(kl_divergence(Exponential(lam1), Exponential(lam2)), expected, dtype, rtol=1e-4)


def test_invalid_parameters():
    with pytest.raises(ValueError, match=r"Exponential: lam must be positive, got -2\.0"):
        Exponential(numpy.array([1.0, -2.0]))


@pytest.mark.parametrize("point", [numpy.float32(2.0), numpy.float64(2.0), 2.0, 2])
def test_scalar_points_are_accepted(point):
    # v7 code evaluates batch-less distributions at NumPy or Python scalars.
    dist = Exponential(numpy.asarray(1.5, numpy.float32))
    log_prob = dist.log_prob(point)
    assert log_prob.shape == () and log_prob.dtype == numpy.float32
    testing.assert_allclose(log_prob.array, numpy.log(1.5) - 1.5 * 2.0)
    testing.assert_allclose(dist.cdf(point).array, 1 - numpy.exp(-3.0))
