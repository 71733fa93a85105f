"""Categorical: both parameterizations, sampling frequencies, gradients, KL and errors."""

import numpy
import pytest

from chainer import testing
from chainer.distributions import Categorical
from chainer.distributions.distribution import kl_divergence

from .conftest import FLOAT_DTYPES, assert_matches, check_gradient, stats


def _logits(dtype, shape=(2, 3, 4)):
    return numpy.random.normal(size=shape).astype(dtype)


def _softmax(logit):
    e = numpy.exp(logit - logit.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("by_logit", [False, True])
@testing.fix_random()
def test_log_prob_and_entropy(dtype, by_logit):
    logit = _logits(dtype)
    p = _softmax(logit.astype(numpy.float64))
    dist = Categorical(logit=logit) if by_logit else Categorical(p.astype(dtype))
    assert dist.batch_shape == (2, 3)
    assert dist.event_shape == ()
    x = numpy.random.randint(0, 4, (5, 2, 3))
    expected = numpy.log(
        numpy.take_along_axis(numpy.broadcast_to(p, (5, 2, 3, 4)), x[..., None], -1)
    )
    assert_matches(dist.log_prob(x), expected[..., 0], dtype)
    assert_matches(dist.prob(x), numpy.exp(expected[..., 0]), dtype)
    assert_matches(dist.entropy, stats().entropy(p, axis=-1), dtype)
    assert_matches(dist.p, p, dtype)
    assert_matches(dist.log_p, numpy.log(p), dtype)


def test_zero_probabilities():
    dist = Categorical(numpy.array([0.0, 0.25, 0.75]))
    assert_matches(
        dist.log_prob(numpy.array([0, 2])), [-numpy.inf, numpy.log(0.75)], numpy.float64
    )
    assert_matches(dist.entropy, stats().entropy([0.25, 0.75]), numpy.float64)


@testing.fix_random()
def test_sample_frequencies():
    p = numpy.array([[0.1, 0.2, 0.7], [0.5, 0.0, 0.5]], numpy.float32)
    n = 100_000
    samples = Categorical(p).sample((n // 10, 10))
    assert samples.shape == (n // 10, 10, 2)
    assert samples.dtype == numpy.int32
    assert samples.creator is None
    flat = samples.array.reshape(n, 2)
    for b in range(2):
        frequencies = numpy.bincount(flat[:, b], minlength=3) / n
        numpy.testing.assert_array_less(
            numpy.abs(frequencies - p[b]), 5 * numpy.sqrt(p[b] / n) + 1e-12
        )


@testing.fix_random()
def test_gradients():
    logit = _logits(numpy.float64)
    p = _softmax(logit)
    x = numpy.random.randint(0, 4, (2, 3))
    check_gradient(lambda v: Categorical(logit=v).log_prob(x), (logit,))
    check_gradient(lambda v: Categorical(v).log_prob(x), (p,))
    check_gradient(lambda v: Categorical(logit=v).entropy, (logit,))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@testing.fix_random()
def test_kl(dtype):
    logit1, logit2 = _logits(dtype), _logits(dtype)
    p1, p2 = _softmax(logit1.astype(numpy.float64)), _softmax(logit2.astype(numpy.float64))
    expected = stats().entropy(p1, p2, axis=-1)
    kl = kl_divergence(Categorical(logit=logit1), Categorical(p2.astype(dtype)))
    assert_matches(kl, expected, dtype)
    check_gradient(
        lambda v: kl_divergence(Categorical(logit=v), Categorical(p2)),
        (logit1.astype(numpy.float64),),
    )


def test_invalid_arguments():
    with pytest.raises(ValueError, match="Categorical: give either p or logit"):
        Categorical()
    with pytest.raises(ValueError, match="Categorical: give either p or logit"):
        Categorical(numpy.ones(2) / 2, logit=numpy.zeros(2))
    with pytest.raises(ValueError, match="Categorical: p needs a last axis of categories"):
        Categorical(numpy.array(1.0))
    with pytest.raises(
        ValueError, match=r"Categorical: p must be in \[0, 1\], got 1\.5 \(2 invalid of 2 values\)"
    ):
        Categorical(numpy.array([1.5, -0.5]))
    with pytest.raises(TypeError, match="x must hold integer indices, got float32"):
        Categorical(numpy.ones(2) / 2).log_prob(numpy.zeros(1, numpy.float32))
