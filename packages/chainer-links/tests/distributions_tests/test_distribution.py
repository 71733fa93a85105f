"""The Distribution base class: derived methods, sampling shapes, caching and the KL registry."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.distributions import Exponential, Normal, distribution
from chainer.distributions.distribution import (
    Distribution,
    cross_entropy,
    kl_divergence,
    register_kl,
)

from .conftest import assert_matches


class _Logistic(Distribution):
    """A test law that defines only params, log_prob, cdf and variance."""

    def __init__(self, loc):
        self.loc = chainer.as_variable(loc)

    @property
    def params(self):
        return {"loc": self.loc}

    def log_prob(self, x):
        z = x - self.loc
        return -z - 2 * F.softplus(-z)

    def cdf(self, x):
        return F.sigmoid(x - self.loc)

    @property
    def variance(self):
        return chainer.as_variable(self.xp.full(self.loc.shape, numpy.pi**2 / 3))


class _ByLogCdf(Distribution):
    """A test law that defines its distribution function through log_cdf and stddev."""

    @property
    def params(self):
        return {"rate": chainer.as_variable(numpy.ones(2))}

    def log_cdf(self, x):
        return F.log(-F.expm1(-chainer.as_variable(x)))

    @property
    def stddev(self):
        return chainer.as_variable(numpy.full(2, 3.0))


def test_methods_derived_from_the_defined_ones():
    loc = numpy.array([0.0, 1.0])
    x = numpy.array([0.5, -2.0])
    dist = _Logistic(loc)
    z = x - loc
    pdf = numpy.exp(-z) / (1 + numpy.exp(-z)) ** 2
    cdf = 1 / (1 + numpy.exp(-z))
    assert dist.batch_shape == (2,)
    assert dist.event_shape == ()
    assert dist.xp is numpy
    assert_matches(dist.prob(x), pdf, numpy.float64)
    assert_matches(dist.perplexity(x), 1 / pdf, numpy.float64)
    assert_matches(dist.log_cdf(x), numpy.log(cdf), numpy.float64)
    assert_matches(dist.survival_function(x), 1 - cdf, numpy.float64)
    assert_matches(dist.log_survival_function(x), numpy.log1p(-cdf), numpy.float64)
    assert_matches(dist.stddev, numpy.full(2, numpy.pi / numpy.sqrt(3)), numpy.float64)
    other = _ByLogCdf()
    positive = numpy.array([0.5, 2.0])
    assert_matches(other.cdf(positive), -numpy.expm1(-positive), numpy.float64)
    assert_matches(other.variance, numpy.full(2, 9.0), numpy.float64)


@pytest.mark.parametrize(
    "name", ["mean", "mode", "entropy", "covariance", "support", "icdf", "sample_n"]
)
def test_missing_features_say_what_is_missing(name):
    dist = _Logistic(numpy.zeros(2))
    with pytest.raises(NotImplementedError, match=f"_Logistic does not implement {name}"):
        member = getattr(dist, name)
        member(1) if callable(member) else None


def test_missing_distribution_functions():
    with pytest.raises(NotImplementedError, match="_ByLogCdf does not implement log_prob"):
        _ByLogCdf().prob(numpy.zeros(2))
    bare = Distribution()
    for name in ("cdf", "log_cdf"):
        with pytest.raises(NotImplementedError, match=f"Distribution does not implement {name}"):
            getattr(bare, name)(numpy.zeros(1))
    with pytest.raises(NotImplementedError, match="Distribution does not implement params"):
        bare.batch_shape  # noqa: B018
    with pytest.raises(NotImplementedError, match="Distribution does not implement variance"):
        bare.stddev  # noqa: B018


@pytest.mark.parametrize(
    ("sample_shape", "expected"), [((), (3,)), (4, (4, 3)), ((2, 5), (2, 5, 3)), ((0,), (0, 3))]
)
def test_sample_shapes(sample_shape, expected):
    dist = Normal(numpy.zeros(3, numpy.float32), numpy.ones(3, numpy.float32))
    sample = dist.sample(sample_shape)
    assert sample.shape == expected
    assert sample.dtype == numpy.float32


def test_invalid_sample_shapes_and_counts():
    dist = Normal(numpy.zeros(3), numpy.ones(3))
    with pytest.raises(
        ValueError, match=r"sample_shape must be a non-negative int .*got \(2, -1\)"
    ):
        dist.sample((2, -1))
    with pytest.raises(ValueError, match=r"got \(1\.5,\)"):
        dist.sample((1.5,))
    with pytest.raises(TypeError, match="sample_n: n must be an int, got float"):
        dist.sample_n(2.0)
    with pytest.raises(ValueError, match="sample_n: n must be non-negative, got -1"):
        dist.sample_n(-1)


def test_repr():
    dist = Exponential(numpy.ones((2, 3), numpy.float32))
    assert repr(dist) == "Exponential(batch_shape=(2, 3), event_shape=(), dtype=float32)"


def test_derived_values_are_cached_per_backprop_mode():
    scale = chainer.Variable(numpy.array([2.0]))
    dist = Normal(numpy.zeros(1), scale)
    assert dist.variance is dist.variance
    assert dist.variance.creator is not None
    with chainer.no_backprop_mode():
        detached = dist.variance
    assert detached is not dist.variance
    assert detached.creator is None


class _Child(Normal):
    pass


def test_kl_registry(monkeypatch):
    monkeypatch.setattr(distribution, "_KL_REGISTRY", dict(distribution._KL_REGISTRY))
    p = _Child(numpy.zeros(2), numpy.ones(2))
    q = Normal(numpy.ones(2), numpy.ones(2))
    # A subclass inherits its parent's formula...
    assert_matches(kl_divergence(p, q), [0.5, 0.5], numpy.float64)
    entropy = 0.5 * numpy.log(2 * numpy.pi * numpy.e)
    assert_matches(cross_entropy(p, q), numpy.full(2, entropy + 0.5), numpy.float64)

    # ... until a more specific one is registered.
    @register_kl(_Child, Normal)
    def _zero(dist1, dist2):
        return chainer.as_variable(numpy.zeros(2))

    assert _zero.__name__ == "_zero"
    assert_matches(kl_divergence(p, q), [0.0, 0.0], numpy.float64)
    with pytest.raises(
        NotImplementedError, match="between Normal and Exponential is not registered"
    ):
        kl_divergence(q, Exponential(numpy.ones(2)))


def test_register_kl_needs_distribution_classes():
    with pytest.raises(
        TypeError, match="register_kl: Dist2 must be a Distribution subclass, got <class 'int'>"
    ):
        register_kl(Normal, int)
