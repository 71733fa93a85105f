"""Independent: reduced values, shapes, block-diagonal covariance, KL and errors."""

import numpy
import pytest

from chainer import testing
from chainer.distributions import Independent, MultivariateNormal, Normal
from chainer.distributions.distribution import kl_divergence

from .conftest import assert_matches, check_gradient, stats


def _normal(shape=(2, 3, 4)):
    loc = numpy.random.uniform(-1, 1, shape)
    scale = numpy.random.uniform(0.5, 2, shape)
    return Normal(loc, scale), stats().norm(loc, scale)


@testing.fix_random()
def test_default_reinterprets_all_but_the_first_batch_axis():
    base, reference = _normal()
    dist = Independent(base)
    assert dist.reinterpreted_batch_ndims == 2
    assert dist.batch_shape == (2,)
    assert dist.event_shape == (3, 4)
    assert dist.distribution is base
    assert set(dist.params) == {"loc", "scale"}
    assert dist.xp is numpy
    assert dist.support == "real"
    assert repr(dist) == (
        "Independent(Normal(batch_shape=(2, 3, 4), event_shape=(), dtype=float64), "
        "reinterpreted_batch_ndims=2)"
    )
    x = numpy.random.normal(size=(5, 2, 3, 4))
    axes = (-2, -1)
    assert_matches(dist.log_prob(x), reference.logpdf(x).sum(axes), numpy.float64)
    assert_matches(dist.prob(x), reference.pdf(x).prod(axes), numpy.float64)
    assert_matches(dist.perplexity(x), numpy.exp(-reference.logpdf(x).sum(axes)), numpy.float64)
    assert_matches(dist.cdf(x), reference.cdf(x).prod(axes), numpy.float64)
    assert_matches(dist.log_cdf(x), reference.logcdf(x).sum(axes), numpy.float64)
    assert_matches(dist.survival_function(x), reference.sf(x).prod(axes), numpy.float64)
    assert_matches(dist.log_survival_function(x), reference.logsf(x).sum(axes), numpy.float64)
    p = numpy.random.uniform(0.1, 0.9, (2, 3, 4))
    assert_matches(dist.icdf(p), reference.ppf(p), numpy.float64)
    assert_matches(dist.entropy, reference.entropy().sum(axes), numpy.float64)
    for name, expected in [
        ("mean", reference.mean()),
        ("stddev", reference.std()),
        ("variance", reference.var()),
        ("mode", reference.mean()),
    ]:
        assert_matches(getattr(dist, name), expected, numpy.float64)
    assert dist.sample((7,)).shape == (7, 2, 3, 4)


@testing.fix_random()
def test_explicit_reinterpreted_batch_ndims():
    base, reference = _normal()
    x = numpy.random.normal(size=(2, 3, 4))
    assert Independent(base, 0).event_shape == ()
    assert_matches(Independent(base, 0).log_prob(x), reference.logpdf(x), numpy.float64)
    every = Independent(base, 3)
    assert every.batch_shape == ()
    assert_matches(every.log_prob(x), reference.logpdf(x).sum(), numpy.float64)


@testing.fix_random()
def test_covariance_of_scalar_components_is_diagonal():
    base, reference = _normal((2, 3))
    expected = numpy.stack([numpy.diag(v) for v in reference.var()])
    assert_matches(Independent(base).covariance, expected, numpy.float64)


@testing.fix_random()
def test_covariance_of_vector_components_is_block_diagonal():
    linalg = pytest.importorskip("scipy.linalg")
    loc = numpy.random.normal(size=(2, 3, 2))
    tril = numpy.tril(numpy.random.uniform(0.5, 1.5, (2, 3, 2, 2)))
    dist = Independent(MultivariateNormal(loc, scale_tril=tril))
    assert dist.event_shape == (3, 2)
    covariances = tril @ tril.swapaxes(-1, -2)
    expected = numpy.stack([linalg.block_diag(*covariances[b]) for b in range(2)])
    assert_matches(dist.covariance, expected, numpy.float64)


@testing.fix_random()
def test_kl_sums_the_components():
    (p, _), (q, _) = _normal(), _normal()
    expected = kl_divergence(p, q).array.sum(axis=(-2, -1))
    assert_matches(kl_divergence(Independent(p), Independent(q)), expected, numpy.float64)
    with pytest.raises(
        NotImplementedError, match=r"equal event shapes only, got \(3, 4\) and \(4,\)"
    ):
        kl_divergence(Independent(p), Independent(q, 1))


@testing.fix_random()
def test_gradient_of_log_prob():
    loc, scale = numpy.random.normal(size=(2, 3)), numpy.random.uniform(0.5, 2, (2, 3))
    x = numpy.random.normal(size=(2, 3))
    check_gradient(lambda m, s: Independent(Normal(m, s)).log_prob(x), (loc, scale))


def test_invalid_arguments():
    base = Normal(numpy.zeros((2, 3)), numpy.ones((2, 3)))
    with pytest.raises(ValueError, match=r"must be an int in \[0, 2\].*got 3"):
        Independent(base, 3)
    with pytest.raises(ValueError, match=r"must be an int in \[0, 2\].*got 1\.5"):
        Independent(base, 1.5)
    with pytest.raises(TypeError, match="distribution must be a Distribution, got ndarray"):
        Independent(numpy.zeros(3))
