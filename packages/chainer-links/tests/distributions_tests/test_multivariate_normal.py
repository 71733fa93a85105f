"""MultivariateNormal: values against SciPy, gradients, reparameterized samples, KL, errors."""

import numpy
import pytest

import chainer
from chainer import gradient_check, testing
from chainer.distributions import MultivariateNormal, Normal
from chainer.distributions.distribution import kl_divergence

from .conftest import FLOAT_DTYPES, assert_matches, check_gradient, seeded, stats

LOWER = numpy.tril(numpy.ones((3, 3)))


def _params(dtype, batch=(2,), d=3):
    loc = numpy.random.uniform(-1, 1, (*batch, d)).astype(dtype)
    tril = numpy.tril(numpy.random.uniform(-0.5, 0.5, (*batch, d, d)), -1)
    tril += numpy.eye(d) * numpy.random.uniform(0.5, 1.5, (*batch, d, 1))
    return loc, tril.astype(dtype)


def _tril(raw):
    # Only the lower triangle is a free parameter: perturbing the rest must change nothing.
    return raw * LOWER


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_matches_scipy(dtype):
    loc, tril = _params(dtype)
    dist = MultivariateNormal(loc, scale_tril=tril)
    assert dist.batch_shape == (2,)
    assert dist.event_shape == (3,)
    assert dist.d == 3
    assert dist.support == "real"
    covariance = tril.astype(numpy.float64) @ tril.astype(numpy.float64).swapaxes(-1, -2)
    references = [
        stats().multivariate_normal(loc[b].astype(float), covariance[b]) for b in range(2)
    ]
    x = numpy.random.normal(size=(4, 2, 3)).astype(dtype)
    log_prob = numpy.stack([references[b].logpdf(x[:, b]) for b in range(2)], -1)
    assert_matches(dist.log_prob(x), log_prob, dtype)
    assert_matches(dist.prob(x), numpy.exp(log_prob), dtype)
    assert_matches(dist.entropy, [ref.entropy() for ref in references], dtype)
    assert_matches(dist.covariance, covariance, dtype)
    assert_matches(dist.variance, numpy.diagonal(covariance, 0, -2, -1), dtype)
    assert_matches(dist.mean, loc, dtype)
    assert_matches(dist.mode, loc, dtype)


@testing.fix_random()
def test_samples_have_the_mean_and_covariance():
    loc, tril = _params(numpy.float32, batch=())
    n = 100_000
    samples = MultivariateNormal(loc, scale_tril=tril).sample_n(n)
    assert samples.shape == (n, 3)
    values = samples.array.astype(numpy.float64)
    covariance = tril.astype(numpy.float64) @ tril.astype(numpy.float64).T
    numpy.testing.assert_array_less(
        numpy.abs(values.mean(0) - loc), 5 * numpy.sqrt(numpy.diag(covariance) / n)
    )
    numpy.testing.assert_allclose(numpy.cov(values.T), covariance, atol=0.02)


@testing.fix_random()
def test_gradients():
    loc, tril = _params(numpy.float64)
    x = numpy.random.normal(size=(2, 3))
    check_gradient(
        lambda m, r: MultivariateNormal(m, scale_tril=_tril(r)).log_prob(x), (loc, tril)
    )
    check_gradient(lambda r: MultivariateNormal(loc, scale_tril=_tril(r)).entropy, (tril,))
    check_gradient(lambda r: MultivariateNormal(loc, scale_tril=_tril(r)).covariance, (tril,))
    check_gradient(
        seeded(lambda m, r: MultivariateNormal(m, scale_tril=_tril(r)).sample_n(3)), (loc, tril)
    )


def _kl_reference(loc1, cov1, loc2, cov2):
    d = loc1.shape[-1]
    diff = loc2 - loc1
    trace = numpy.trace(numpy.linalg.solve(cov2, cov1), axis1=-2, axis2=-1)
    mahalanobis = numpy.einsum(
        "...i,...i->...", diff, numpy.linalg.solve(cov2, diff[..., None])[..., 0]
    )
    log_det = numpy.linalg.slogdet(cov2)[1] - numpy.linalg.slogdet(cov1)[1]
    return 0.5 * (trace + mahalanobis - d + log_det)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_kl(dtype):
    (loc1, tril1), (loc2, tril2) = _params(dtype), _params(dtype)
    t1, t2 = tril1.astype(numpy.float64), tril2.astype(numpy.float64)
    expected = _kl_reference(loc1, t1 @ t1.swapaxes(-1, -2), loc2, t2 @ t2.swapaxes(-1, -2))
    kl = kl_divergence(
        MultivariateNormal(loc1, scale_tril=tril1), MultivariateNormal(loc2, scale_tril=tril2)
    )
    assert_matches(kl, expected, dtype)
    check_gradient(
        lambda m, r: kl_divergence(
            MultivariateNormal(m, scale_tril=_tril(r)),
            MultivariateNormal(loc2.astype(float), scale_tril=t2),
        ),
        (loc1.astype(numpy.float64), t1),
    )


def test_one_dimensional_law_is_normal():
    loc, scale = numpy.array([[0.5], [-1.0]]), numpy.array([[[2.0]], [[0.5]]])
    mvn = MultivariateNormal(loc, scale_tril=scale)
    normal = Normal(loc[:, 0], scale[:, 0, 0])
    x = numpy.array([[1.0], [0.0]])
    assert_matches(mvn.log_prob(x), normal.log_prob(x[:, 0]).array, numpy.float64)
    other = MultivariateNormal(loc + 1, scale_tril=scale * 2)
    expected = kl_divergence(normal, Normal(loc[:, 0] + 1, scale[:, 0, 0] * 2)).array
    assert_matches(kl_divergence(mvn, other), expected, numpy.float64)


def test_invalid_parameters():
    loc = numpy.zeros(2)
    with pytest.raises(ValueError, match="MultivariateNormal: scale_tril must be given"):
        MultivariateNormal(loc)
    with pytest.raises(
        ValueError,
        match=r"scale_tril must have shape loc.shape \+ \(d,\).*scale_tril.shape=\(3, 3\)",
    ):
        MultivariateNormal(loc, scale_tril=numpy.eye(3))
    with pytest.raises(
        ValueError, match="scale_tril must be lower triangular with a positive diagonal"
    ):
        MultivariateNormal(loc, scale_tril=numpy.array([[1.0, 0.5], [0.0, 1.0]]))
    with pytest.raises(
        ValueError, match="scale_tril must be lower triangular with a positive diagonal"
    ):
        MultivariateNormal(loc, scale_tril=numpy.array([[1.0, 0.0], [0.5, -1.0]]))
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        MultivariateNormal(loc, scale_tril=numpy.eye(2), covariance=numpy.eye(2))


@pytest.mark.parametrize("lower", [True, False])
def test_private_triangular_inverse(lower):
    # v7's private name: the inverse of one triangle of a square matrix.
    from chainer.distributions.multivariate_normal import _triangular_inv

    rng = numpy.random.RandomState(0)
    full = rng.normal(size=(4, 4)) + 4 * numpy.eye(4)
    triangle = numpy.tril(full) if lower else numpy.triu(full)
    y = _triangular_inv(full, lower=lower)  # the other triangle is ignored
    numpy.testing.assert_allclose(y.array, numpy.linalg.inv(triangle), rtol=1e-10)
    x = chainer.Variable(full)
    chainer.functions.sum(_triangular_inv(x, lower=lower)).backward()
    other = numpy.triu(numpy.ones((4, 4)), 1) if lower else numpy.tril(numpy.ones((4, 4)), -1)
    assert (x.grad[other == 1] == 0).all()
    gradient_check.check_backward(
        lambda a: _triangular_inv(a, lower=lower), triangle, rng.normal(size=(4, 4)), rtol=1e-5
    )
