"""Dirichlet: values against SciPy, gradients, samples, KL and errors."""

import numpy
import pytest

from chainer import testing
from chainer.distributions import Beta, Dirichlet
from chainer.distributions.distribution import kl_divergence

from .conftest import FLOAT_DTYPES, assert_matches, check_gradient, integrated_kl, stats


def _alpha(dtype, shape=(2, 3)):
    return numpy.random.uniform(0.5, 4, shape).astype(dtype)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_matches_scipy(dtype):
    alpha = _alpha(dtype)
    dist = Dirichlet(alpha)
    assert dist.batch_shape == (2,)
    assert dist.event_shape == (3,)
    assert dist.support == "[0, 1]"
    x = numpy.stack([numpy.random.dirichlet(a, 4) for a in alpha.astype(numpy.float64)], axis=1)
    references = [stats().dirichlet(a) for a in alpha.astype(numpy.float64)]
    log_prob = numpy.stack([ref.logpdf(x[:, b].T) for b, ref in enumerate(references)], -1)
    assert_matches(dist.log_prob(x.astype(dtype)), log_prob, dtype)
    assert_matches(dist.entropy, [ref.entropy() for ref in references], dtype)
    assert_matches(dist.mean, [ref.mean() for ref in references], dtype)
    assert_matches(dist.variance, [ref.var() for ref in references], dtype)
    assert_matches(dist.alpha0, alpha.astype(numpy.float64).sum(-1), dtype)


@testing.fix_random()
def test_samples_have_the_moments_and_carry_no_gradient():
    alpha = numpy.array([[1.0, 2.0, 3.0], [0.5, 0.5, 4.0]], numpy.float32)
    n = 100_000
    samples = Dirichlet(alpha).sample_n(n)
    assert samples.shape == (n, 2, 3)
    assert samples.dtype == numpy.float32
    assert samples.creator is None
    numpy.testing.assert_allclose(samples.array.sum(-1), 1, rtol=1e-5)
    values = samples.array.astype(numpy.float64)
    for b in range(2):
        ref = stats().dirichlet(alpha[b].astype(numpy.float64))
        numpy.testing.assert_array_less(
            numpy.abs(values[:, b].mean(0) - ref.mean()), 5 * numpy.sqrt(ref.var() / n)
        )
        numpy.testing.assert_allclose(values[:, b].var(0), ref.var(), rtol=0.03)


@testing.fix_random()
def test_gradients():
    alpha = _alpha(numpy.float64)
    x = numpy.stack([numpy.random.dirichlet(a) for a in alpha])
    check_gradient(lambda a: Dirichlet(a).log_prob(x), (alpha,))
    check_gradient(lambda a: Dirichlet(a).entropy, (alpha,))
    check_gradient(lambda a: Dirichlet(a).variance, (alpha,))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_kl_of_two_categories_is_the_beta_kl(dtype):
    alpha1, alpha2 = _alpha(dtype, (3, 2)), _alpha(dtype, (3, 2))
    beta = stats().beta
    expected = integrated_kl(
        beta(alpha1[:, 0].astype(float), alpha1[:, 1].astype(float)),
        beta(alpha2[:, 0], alpha2[:, 1]),
    )
    assert_matches(
        kl_divergence(Dirichlet(alpha1), Dirichlet(alpha2)), expected, dtype, rtol=1e-4, atol=1e-6
    )
    beta_kl = kl_divergence(Beta(alpha1[:, 0], alpha1[:, 1]), Beta(alpha2[:, 0], alpha2[:, 1]))
    assert_matches(beta_kl, expected, dtype, rtol=1e-4, atol=1e-6)


@testing.fix_random()
def test_kl_gradient():
    alpha1, alpha2 = _alpha(numpy.float64), _alpha(numpy.float64)
    check_gradient(lambda a, b: kl_divergence(Dirichlet(a), Dirichlet(b)), (alpha1, alpha2))


def test_invalid_parameters():
    with pytest.raises(ValueError, match=r"Dirichlet: alpha must be positive, got 0\.0"):
        Dirichlet(numpy.array([1.0, 0.0]))
    with pytest.raises(ValueError, match="Dirichlet: alpha needs a last axis of categories"):
        Dirichlet(numpy.array(1.0))
