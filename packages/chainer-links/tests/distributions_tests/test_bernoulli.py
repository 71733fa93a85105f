"""Bernoulli: both parameterizations against SciPy, binary_check, gradients, samples, KL."""

import numpy
import pytest

import chainer
from chainer import gradient_check, testing
from chainer.distributions import Bernoulli
from chainer.distributions.distribution import kl_divergence

from .conftest import (
    FLOAT_DTYPES,
    assert_matches,
    check_functions,
    check_gradient,
    check_samples,
    check_statistics,
    stats,
)


def _probability(dtype, shape=(2, 3)):
    return numpy.random.uniform(0.05, 0.95, shape).astype(dtype)


def _logit(p):
    return numpy.log(p) - numpy.log1p(-p)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("by_logit", [False, True])
@testing.fix_random()
def test_matches_scipy(dtype, by_logit):
    p = _probability(dtype)
    dist = Bernoulli(logit=_logit(p)) if by_logit else Bernoulli(p)
    reference = stats().bernoulli(p.astype(numpy.float64))
    x = numpy.random.randint(0, 2, (4, 2, 3)).astype(dtype)
    check_functions(dist, reference, x, ["log_prob", "prob"], discrete=True)
    check_statistics(dist, reference, dtype, ["entropy", "mean", "variance", "stddev"])
    assert_matches(dist.p, p, dtype)
    assert_matches(dist.logit, _logit(p), dtype)
    assert set(dist.params) == ({"logit"} if by_logit else {"p"})
    assert dist.support == "{0, 1}"
    assert dist.batch_shape == (2, 3)


def test_relaxed_points_and_binary_check():
    p = numpy.array([0.2, 0.7])
    x = numpy.array([0.5, 0.25])
    relaxed = x * numpy.log(p) + (1 - x) * numpy.log1p(-p)
    assert_matches(Bernoulli(p).log_prob(x), relaxed, numpy.float64)
    checked = Bernoulli(p, binary_check=True)
    assert_matches(checked.log_prob(x), [-numpy.inf, -numpy.inf], numpy.float64)
    assert_matches(checked.prob(numpy.array([1.0, 2.0])), [0.2, 0.0], numpy.float64)


def test_extreme_probabilities_and_logits():
    certain = Bernoulli(numpy.array([0.0, 1.0]))
    assert_matches(certain.log_prob(numpy.array([0.0, 1.0])), [0.0, 0.0], numpy.float64)
    assert_matches(certain.log_prob(numpy.array([1.0, 0.0])), [-numpy.inf] * 2, numpy.float64)
    assert_matches(certain.entropy, [0.0, 0.0], numpy.float64)
    # In float32, sigmoid(40) rounds to 1, but the logit form keeps log P(0) = -40.
    confident = Bernoulli(logit=numpy.array([40.0, -40.0], numpy.float32))
    assert_matches(confident.log_prob(numpy.array([0, 1])), [-40.0, -40.0], numpy.float32)


@testing.fix_random()
def test_samples_follow_the_law_and_carry_no_gradient():
    p = _probability(numpy.float32, (3,))
    check_samples(Bernoulli(p), stats().bernoulli(p), ks=False)
    samples = Bernoulli(logit=_logit(p)).sample_n(4)
    assert samples.dtype == numpy.float32
    assert samples.creator is None
    assert set(numpy.unique(samples.array)) <= {0.0, 1.0}


@testing.fix_random()
def test_gradients():
    p = _probability(numpy.float64)
    x = numpy.random.randint(0, 2, (2, 3)).astype(numpy.float64)
    check_gradient(lambda v: Bernoulli(v).log_prob(x), (p,))
    check_gradient(lambda v: Bernoulli(logit=v).log_prob(x), (_logit(p),))
    check_gradient(lambda v: Bernoulli(v).entropy, (p,))
    check_gradient(lambda v: Bernoulli(logit=v).entropy, (_logit(p),))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_kl(dtype):
    p1, p2 = _probability(dtype, (3,)), _probability(dtype, (3,))
    expected = stats().entropy(numpy.stack([p1, 1 - p1]), numpy.stack([p2, 1 - p2]))
    assert_matches(kl_divergence(Bernoulli(p1), Bernoulli(logit=_logit(p2))), expected, dtype)
    check_gradient(
        lambda v: kl_divergence(Bernoulli(logit=v), Bernoulli(p2.astype(numpy.float64))),
        (_logit(p1).astype(numpy.float64),),
    )


def test_invalid_parameters():
    with pytest.raises(ValueError, match="Bernoulli: give either p or logit"):
        Bernoulli()
    with pytest.raises(ValueError, match="Bernoulli: give either p or logit"):
        Bernoulli(numpy.ones(1), numpy.ones(1))
    with pytest.raises(ValueError, match=r"Bernoulli: p must be in \[0, 1\], got 1\.5"):
        Bernoulli(numpy.array([0.5, 1.5]))


def test_private_log_prob_of_a_logit():
    # v7's private name: log P(x) from the log-odds, the relaxed form for any x.
    from chainer.distributions.bernoulli import _bernoulli_log_prob

    logit = numpy.array([-3.0, 0.0, 1.5, 4.0])
    x = numpy.array([0.0, 1.0, 0.25, 1.0])
    p = 1 / (1 + numpy.exp(-logit))
    expected = x * numpy.log(p) + (1 - x) * numpy.log1p(-p)
    numpy.testing.assert_allclose(_bernoulli_log_prob(logit, x).array, expected, rtol=1e-12)
    gradient_check.check_backward(lambda lo: _bernoulli_log_prob(lo, x), logit, numpy.ones(4))


def test_private_log_prob_of_infinite_logits_backprops():
    from chainer.distributions.bernoulli import _bernoulli_log_prob

    logit = chainer.Variable(numpy.array([numpy.inf, numpy.inf, -numpy.inf]))
    y = _bernoulli_log_prob(logit, numpy.array([1.0, 0.0, 0.0]))
    numpy.testing.assert_array_equal(y.array, [0.0, -numpy.inf, 0.0])
    chainer.functions.sum(y[numpy.array([0, 2])]).backward()
    numpy.testing.assert_array_equal(logit.grad, [0.0, 0.0, 0.0])
