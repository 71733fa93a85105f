"""Normal: values against SciPy, gradients, reparameterized samples, KL and errors."""

import numpy
import pytest

import chainer
from chainer import testing
from chainer.distributions import Normal
from chainer.distributions.distribution import cross_entropy, kl_divergence

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

FUNCTIONS = ["log_prob", "prob", "cdf", "log_cdf", "survival_function", "log_survival_function"]


def _params(dtype, shape=(2, 3)):
    loc = numpy.random.uniform(-1, 1, shape).astype(dtype)
    scale = numpy.random.uniform(0.5, 2, shape).astype(dtype)
    return loc, scale


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("by_log_scale", [False, True])
@testing.fix_random()
def test_matches_scipy(dtype, by_log_scale):
    loc, scale = _params(dtype)
    log_scale = numpy.log(scale)
    dist = Normal(loc, log_scale=log_scale) if by_log_scale else Normal(loc, scale)
    reference = stats().norm(loc.astype(numpy.float64), scale.astype(numpy.float64))
    x = numpy.random.normal(0, 2, (4, 2, 3)).astype(dtype)
    check_functions(dist, reference, x, FUNCTIONS)
    check_functions(
        dist, reference, numpy.random.uniform(0.02, 0.98, (2, 3)).astype(dtype), ["icdf"]
    )
    check_statistics(dist, reference, dtype, ["entropy", "mean", "variance", "stddev"])
    assert_matches(dist.mode, loc, dtype)
    assert_matches(dist.scale, scale, dtype)
    assert_matches(dist.log_scale, log_scale, dtype, rtol=1e-5, atol=1e-6)
    assert dist.batch_shape == (2, 3)
    assert dist.event_shape == ()
    assert dist.support == "real"
    expected_params = {"loc", "log_scale"} if by_log_scale else {"loc", "scale"}
    assert set(dist.params) == expected_params


def test_tails_keep_precision():
    dist = Normal(numpy.zeros(2), numpy.ones(2))
    x = numpy.array([-30.0, 30.0])
    reference = stats().norm()
    check_functions(dist, reference, x, ["log_cdf", "log_survival_function"])


@testing.fix_random()
def test_samples_follow_the_law():
    loc, scale = _params(numpy.float32, (3,))
    check_samples(Normal(loc, scale), stats().norm(loc, scale))


@testing.fix_random()
def test_gradients():
    loc, scale = _params(numpy.float64)
    x = numpy.random.normal(size=(2, 3))
    p = numpy.random.uniform(0.1, 0.9, (2, 3))
    check_gradient(lambda m, s: Normal(m, s).log_prob(x), (loc, scale))
    check_gradient(lambda m, s: Normal(m, log_scale=s).log_prob(x), (loc, numpy.log(scale)))
    check_gradient(lambda m, s: Normal(m, s).cdf(x), (loc, scale))
    check_gradient(lambda m, s: Normal(m, s).log_survival_function(x), (loc, scale))
    check_gradient(lambda m, s: Normal(m, s).icdf(p), (loc, scale))
    check_gradient(lambda s: Normal(loc, s).entropy, (scale,))
    check_gradient(lambda t: Normal(loc, scale).log_prob(t), (x,))


@testing.fix_random()
def test_samples_are_reparameterized():
    loc, scale = _params(numpy.float64)
    check_gradient(seeded(lambda m, s: Normal(m, s).sample_n(3)), (loc, scale))
    check_gradient(seeded(lambda m, s: Normal(m, log_scale=s).sample((2, 2))), (loc, scale))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_kl_and_cross_entropy(dtype):
    (loc1, scale1), (loc2, scale2) = _params(dtype, (3,)), _params(dtype, (3,))
    norm = stats().norm
    ref1, ref2 = norm(loc1.astype(float), scale1.astype(float)), norm(loc2, scale2)
    p, q = Normal(loc1, scale1), Normal(loc2, log_scale=numpy.log(scale2))
    expected = integrated_kl(ref1, ref2)
    assert_matches(kl_divergence(p, q), expected, dtype, rtol=1e-4, atol=1e-6)
    assert_matches(cross_entropy(p, q), expected + ref1.entropy(), dtype, rtol=1e-4, atol=1e-6)
    check_gradient(
        lambda m, s: kl_divergence(Normal(m, s), Normal(loc2.astype(float), 1.5)),
        (loc1.astype(float), scale1.astype(float)),
    )


def test_parameters_broadcast_and_accept_numbers():
    loc = numpy.zeros((2, 1), numpy.float32)
    dist = Normal(loc, numpy.ones(3, numpy.float32))
    assert dist.batch_shape == (2, 3)
    scalar = Normal(loc, 2.0)
    assert scalar.scale.dtype == numpy.float32
    assert_matches(scalar.variance, numpy.full((2, 1), 4.0), numpy.float32)
    assert Normal(0.0, 1.0).loc.dtype == chainer.get_dtype()


def test_invalid_parameters():
    loc = numpy.zeros(2, numpy.float32)
    with pytest.raises(ValueError, match="either scale or log_scale"):
        Normal(loc)
    with pytest.raises(ValueError, match="either scale or log_scale"):
        Normal(loc, loc, log_scale=loc)
    with pytest.raises(ValueError, match=r"Normal: scale must be positive, got -1\.0 \(1 invalid"):
        Normal(loc, numpy.array([1, -1], numpy.float32))
    with pytest.raises(
        TypeError, match=r"Normal.__init__\(\) got unexpected keyword argument\(s\) 'sigma'"
    ):
        Normal(loc, sigma=loc)
    with pytest.raises(TypeError, match="one float dtype, got loc: float32, scale: float64"):
        Normal(loc, numpy.ones(2))
    with pytest.raises(TypeError, match="one float dtype, got loc: int64"):
        Normal(numpy.zeros(2, numpy.int64), 1.0)
    with pytest.raises(TypeError, match="scale must be an array, a Variable or a real number"):
        Normal(loc, "1")
    with pytest.raises(
        ValueError, match=r"do not broadcast together \(loc: \(2,\), scale: \(3,\)\)"
    ):
        Normal(loc, numpy.ones(3, numpy.float32))


def test_value_checks_follow_type_check_config():
    with chainer.using_config("type_check", False):
        dist = Normal(numpy.zeros(1, numpy.float32), numpy.array([-1], numpy.float32))
    assert dist.scale.array[0] == -1
